import { create } from 'zustand';
import type { AnyEvent, ConversationSummary, Settings } from '@contract';
import { bridge } from '../bridge/bridge';
import { applyEvent, viewOf, type ConversationView } from './conversation-reducer';

interface AppState {
  conversations: ConversationSummary[];
  current: ConversationView | null;
  settings: Settings | null;
  error: string | null;
}

interface AppActions {
  init(): Promise<void>;
  newConversation(): Promise<void>;
  openConversation(id: string): Promise<void>;
  send(text: string): Promise<void>;
  stop(): Promise<void>;
  approve(cellId: string, code?: string, always?: boolean): Promise<void>;
  skip(cellId: string): Promise<void>;
  interrupt(cellId: string): Promise<void>;
  updateSettings(patch: Parameters<typeof bridge['settings.set']>[0]): Promise<void>;
  dismissError(): void;
  apply(event: AnyEvent): void;
}

export const useApp = create<AppState & AppActions>((set, get) => {
  const guard = async (f: () => Promise<unknown>) => {
    try {
      await f();
    } catch (err) {
      set({ error: err instanceof Error ? err.message : String(err) });
    }
  };
  const refreshList = async () => set({ conversations: await bridge['conversation.list']({}) });
  // A message sent while "New conversation" is still being created must go to that conversation.
  let creating: Promise<void> | null = null;
  const currentId = () => {
    const id = get().current?.conv.id;
    if (!id) throw new Error('no conversation is open');
    return id;
  };

  return {
    conversations: [],
    current: null,
    settings: null,
    error: null,

    async init() {
      const forward = (name: AnyEvent['name']) => bridge.on(name, (payload) => get().apply({ name, payload } as AnyEvent));
      for (const name of ['item.added', 'assistant.delta', 'assistant.done', 'cell.code', 'cell.awaiting-approval', 'cell.running', 'cell.terminal', 'cell.output', 'cell.done', 'turn.start', 'turn.end', 'notice'] as const) forward(name);
      bridge.on('conversation.updated', () => void refreshList().catch(() => undefined));
      bridge.on('error', (p) => set({ error: p.message }));
      await guard(async () => {
        const [settings] = await Promise.all([bridge['settings.get']({}), refreshList()]);
        set({ settings });
        const first = get().conversations[0];
        if (first) await get().openConversation(first.id);
      });
    },
    newConversation() {
      creating = guard(async () => {
        const conv = await bridge['conversation.create']({});
        set({ current: viewOf(conv) });
        await refreshList();
      }).finally(() => (creating = null));
      return creating;
    },
    openConversation: (id) =>
      guard(async () => {
        set({ current: viewOf(await bridge['conversation.get']({ conversationId: id })) });
      }),
    send: (text) =>
      guard(async () => {
        if (creating) await creating;
        if (!get().current) await get().newConversation();
        await bridge['chat.send']({ conversationId: currentId(), text });
      }),
    stop: () => guard(() => bridge['chat.stop']({ conversationId: currentId() })),
    approve: (cellId, code, always) =>
      guard(() => bridge['cell.approve']({ conversationId: currentId(), cellId, ...(code !== undefined ? { code } : {}), ...(always ? { always } : {}) })),
    skip: (cellId) => guard(() => bridge['cell.skip']({ conversationId: currentId(), cellId })),
    interrupt: (cellId) => guard(() => bridge['cell.interrupt']({ conversationId: currentId(), cellId })),
    updateSettings: (patch) => guard(async () => set({ settings: await bridge['settings.set'](patch) })),
    dismissError: () => set({ error: null }),
    apply(event) {
      const current = get().current;
      if (!current) return;
      const next = applyEvent(current, event);
      if (next !== current) set({ current: next });
    },
  };
});
