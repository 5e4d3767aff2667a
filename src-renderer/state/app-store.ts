import { create } from 'zustand';
import { applySettingsPatch } from '@contract/settings-patch';
import { plainError } from './plain-error';
import type { AnyEvent, Attachment, ConversationListEntry, ModelChoice, Settings, SettingsPatch } from '@contract';
import { bridge } from '../bridge/bridge';
import { confirmAutoRun } from './auto-run-confirm';
import { takeInitialData } from './initial-data';
import { noticeId } from './notice-id';
import { useSubagentThreads } from './subagent-threads';
import { applyEvent, viewOf, type ConversationView } from './conversation-reducer';

export type Screen = 'chat' | 'settings' | 'keys' | 'schedules';

interface AppState {
  conversations: ConversationListEntry[];
  query: string;
  current: ConversationView | null;
  settings: Settings | null;
  /** One line at the top of the window; the latest failure wins. */
  error: string | null;
  /** The conversation open when the error happened (null: none): the banner shows only there. */
  errorConversationId: string | null;
  notices: string[];
  screen: Screen;
  /** Whether the provider in settings can be used now (a key, a base URL); null while unknown. */
  providerReady: boolean | null;
  /**
   * The first-run screen is open: at start when no provider is usable, or when asked for ("Set up a
   * provider…"). Never opened by a change made elsewhere, such as picking a provider in Settings.
   */
  onboarding: boolean;
  /** Where keys typed in the app are kept (null until known). */
  secretStorage: 'keychain' | 'memory' | null;
}

interface AppActions {
  init(): Promise<void>;
  /** A blank chat: the conversation itself is made when it gets its first message or attachment. */
  newConversation(): Promise<void>;
  openConversation(id: string): Promise<void>;
  /** The open conversation's id, creating one first when none is open (a message or an attachment). */
  ensureConversation(): Promise<string>;
  search(query: string): Promise<void>;
  renameConversation(id: string, title: string): Promise<void>;
  /** `removeWorkspace`: also delete the folder the app made for it (main refuses any other folder). */
  deleteConversation(id: string, removeWorkspace?: boolean): Promise<void>;
  send(text: string, attachments?: Attachment[]): Promise<boolean>;
  stop(): Promise<void>;
  /** `always`: "Always run here", confirmed first unless code already runs without asking. */
  approve(cellId: string, code?: string, always?: boolean): Promise<void>;
  /** The open conversation's "always run here" (the chip turns it off in one click). */
  setConversationAutoRun(autoRun: boolean): Promise<void>;
  skip(cellId: string): Promise<void>;
  interrupt(cellId: string): Promise<void>;
  /** Keys typed into a running cell's live terminal. */
  typeInto(cellId: string, data: string): Promise<void>;
  /** Drops the last answer (or the failed call) and asks the model again. */
  regenerate(): Promise<void>;
  /** Replaces the last user message and answers it again. */
  editLast(text: string): Promise<boolean>;
  updateSettings(patch: SettingsPatch): Promise<Settings | null>;
  setScreen(screen: Screen): void;
  setProviderReady(ready: boolean): void;
  setOnboarding(open: boolean): void;
  reportError(err: unknown): void;
  dismissError(): void;
  /** Hides a start-up notice, for good: its id is saved in settings.dismissedNotices. */
  dismissNotice(text: string): void;
  apply(event: AnyEvent): void;
}

export type AppStore = AppState & AppActions;

export const useApp = create<AppStore>((set, get) => {
  // A repeated action's refusal is ignored (plainError gives null); an error belongs to its conversation.
  const setError = (err: unknown, conversationId = get().current?.conv.id ?? null): void => {
    const error = plainError(err);
    if (error !== null) set({ error, errorConversationId: conversationId });
  };
  // The conversation an action belongs to is the one shown when it started: a slow request that fails
  // after the person moved on raises its banner there, not in the conversation they are reading now.
  const guard = async <T>(f: () => Promise<T>): Promise<T | null> => {
    const startedIn = get().current?.conv.id ?? null;
    try {
      return await f();
    } catch (err) {
      setError(err, startedIn);
      return null;
    }
  };
  const refreshList = async () => set({ conversations: await bridge['conversation.list'](get().query ? { query: get().query } : {}) });
  // A message sent while "New conversation" is still being created must go to that conversation.
  let creating: Promise<string | null> | null = null;
  const currentId = () => {
    const id = get().current?.conv.id;
    if (!id) throw new Error('no conversation is open');
    return id;
  };
  // A cell shown in a sub-agent's nested thread is answered, stopped and typed into on the sub-agent's
  // conversation, not on the parent's that is open.
  const conversationOf = (cellId: string) => useSubagentThreads.getState().conversationOfCell(cellId) ?? currentId();

  /**
   * Main rewrote the history (items removed) and started a turn; no event says which items went, so
   * take the conversation as it is now. Events arrive in order on one connection, so those emitted
   * after this snapshot apply on top of it and none are counted twice.
   */
  const reloadAfterHistoryEdit = async (conversationId: string) => {
    const conv = await bridge['conversation.get']({ conversationId });
    const current = get().current;
    if (current?.conv.id === conversationId)
      set({ current: { ...viewOf(conv), busy: current.busy, turnStartedAt: current.turnStartedAt } });
  };

  return {
    conversations: [],
    query: '',
    current: null,
    settings: null,
    error: null,
    errorConversationId: null,
    notices: [],
    screen: 'chat',
    providerReady: null,
    onboarding: false,
    secretStorage: null,

    async init() {
      await guard(async () => {
        // Asked for by the page's first script, while this chunk was still loading (initial-data.ts).
        const { settings, info, status, conversations, newest } = await takeInitialData();
        set({
          settings,
          notices: info.notices,
          providerReady: status.ready,
          onboarding: !status.ready,
          secretStorage: info.secretStorage,
          // A search typed meanwhile has its own answer coming.
          ...(get().query ? {} : { conversations }),
        });
        await guard(async () => {
          const conv = await newest;
          if (conv && !get().current) set({ current: viewOf(conv), screen: 'chat' });
        });
      });
    },
    async newConversation() {
      if (creating) await creating;
      set({ current: null, screen: 'chat' });
    },
    openConversation: (id) =>
      guard(async () => {
        const conv = await bridge['conversation.get']({ conversationId: id });
        set({ current: viewOf(conv), screen: 'chat' });
      }).then(() => undefined),
    async ensureConversation() {
      if (creating) await creating;
      const open = get().current?.conv.id;
      if (open) return open;
      creating = guard(async () => {
        const conv = await bridge['conversation.create']({});
        set({ current: viewOf(conv), screen: 'chat' });
        return conv.id;
      }).finally(() => (creating = null));
      const id = await creating;
      if (!id) throw new Error('could not create a conversation');
      return id;
    },
    search: (query) =>
      guard(async () => {
        set({ query });
        await refreshList();
      }).then(() => undefined),
    renameConversation: (id, title) =>
      guard(async () => {
        const summary = await bridge['conversation.rename']({ conversationId: id, title });
        const current = get().current;
        if (current?.conv.id === id) set({ current: { ...current, conv: { ...current.conv, title: summary.title } } });
        await refreshList();
      }).then(() => undefined),
    deleteConversation: (id, removeWorkspace) =>
      guard(async () => {
        await bridge['conversation.delete']({ conversationId: id, ...(removeWorkspace ? { removeWorkspace } : {}) });
        if (get().current?.conv.id === id) set({ current: null });
        await refreshList();
      }).then(() => undefined),
    send: async (text, attachments) =>
      (await guard(async () => {
        const conversationId = await get().ensureConversation();
        // Main records the model a conversation starts with, and says so (conversation.changed).
        await bridge['chat.send']({ conversationId, text, ...(attachments?.length ? { attachments } : {}) });
        return true;
      })) ?? false,
    stop: () => guard(() => bridge['chat.stop']({ conversationId: currentId() })).then(() => undefined),
    approve: (cellId, code, always) =>
      guard(async () => {
        const conversationId = conversationOf(cellId);
        // "Always run here" is confirmed first, naming the sandbox state; declining leaves the cell waiting.
        // A computer action's "always" is "allow for this task" (this turn's actions only): no auto-run to confirm.
        const computerCell = get().current?.conv.items.some((i) => i.id === cellId && i.kind === 'cell' && i.language === 'computer');
        const asks = always && !computerCell && !get().current?.conv.autoRun && !get().settings?.autoRun;
        if (asks && !(await confirmAutoRun('conversation'))) return;
        await bridge['cell.approve']({ conversationId, cellId, ...(code !== undefined ? { code } : {}), ...(always ? { always } : {}) });
      }).then(() => undefined),
    setConversationAutoRun: (autoRun) =>
      guard(() => bridge['conversation.set-auto-run']({ conversationId: currentId(), autoRun })).then(() => undefined),
    skip: (cellId) => guard(() => bridge['cell.skip']({ conversationId: conversationOf(cellId), cellId })).then(() => undefined),
    interrupt: (cellId) => guard(() => bridge['cell.interrupt']({ conversationId: conversationOf(cellId), cellId })).then(() => undefined),
    // Not guarded: keys typed as the run ends are refused by main, which is no error worth showing.
    typeInto: (cellId, data) =>
      bridge['cell.terminal-input']({ conversationId: conversationOf(cellId), cellId, data }).then(
        () => undefined,
        () => undefined,
      ),
    regenerate: () =>
      guard(async () => {
        const conversationId = currentId();
        await bridge['chat.regenerate']({ conversationId });
        await reloadAfterHistoryEdit(conversationId);
      }).then(() => undefined),
    editLast: async (text) =>
      (await guard(async () => {
        const conversationId = currentId();
        await bridge['chat.edit-last']({ conversationId, text });
        await reloadAfterHistoryEdit(conversationId);
        return true;
      })) ?? false,
    updateSettings: (patch) =>
      guard(async () => {
        // Auto-run is confirmed each time it is turned on (declined: nothing saved, null like a refusal).
        if (patch.autoRun === true && !get().settings?.autoRun && !(await confirmAutoRun('everywhere'))) return null;
        // Shown at once (a switch must move when clicked); main's answer, or the old value on failure,
        // follows. Not a change of provider, model or base URL: main completes or refuses those (a model
        // the provider does not serve), and until it answers the header would show an impossible pair.
        const before = get().settings;
        const modelChange = 'provider' in patch || 'model' in patch || 'baseUrl' in patch;
        if (before && !modelChange) set({ settings: applySettingsPatch(before, patch) });
        const settings = await bridge['settings.set'](patch).catch((err: unknown) => {
          set({ settings: before });
          throw err;
        });
        set({ settings });
        if (modelChange) {
          // The open conversation follows the model chosen while it is open; others keep theirs.
          const current = get().current;
          if (current?.conv.modelChoice) {
            const conv = await bridge['conversation.set-model']({ conversationId: current.conv.id, choice: choiceOf(settings) });
            const now = get().current;
            if (now?.conv.id === conv.id) set({ current: { ...now, conv: { ...now.conv, modelChoice: conv.modelChoice } } });
          }
          const status = await bridge['providers.status']({});
          set({ providerReady: status.ready });
        }
        return settings;
      }),
    setScreen: (screen) => set({ screen }),
    setProviderReady: (providerReady) => set({ providerReady }),
    setOnboarding: (onboarding) => set({ onboarding }),
    reportError: (err) => setError(err),
    dismissError: () => set({ error: null }),
    dismissNotice(text) {
      set({ notices: get().notices.filter((n) => n !== text) });
      const dismissed = get().settings?.dismissedNotices ?? [];
      // The newest 64 are kept (the settings' limit); old notices rarely come back word for word.
      void get().updateSettings({ dismissedNotices: [...dismissed.filter((id) => id !== noticeId(text)), noticeId(text)].slice(-64) });
    },
    apply(event) {
      const current = get().current;
      if (!current) return;
      const next = applyEvent(current, event);
      if (next !== current) set({ current: next });
    },
  };
});

export function choiceOf({ provider, model, baseUrl }: Settings): ModelChoice {
  return { provider, model, baseUrl };
}

/** The model the open conversation talks to: its own once started, else what a new one gets. */
export function useModelChoice(): ModelChoice | null {
  const own = useApp((s) => s.current?.conv.modelChoice);
  const settings = useApp((s) => s.settings);
  return own ?? (settings ? choiceOf(settings) : null);
}

/** Refreshes the list after another part of the app changed a conversation (title, new one). */
export async function refreshConversationList(): Promise<void> {
  const { query } = useApp.getState();
  useApp.setState({ conversations: await bridge['conversation.list'](query ? { query } : {}) });
}
