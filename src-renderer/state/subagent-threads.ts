import { create } from 'zustand';
import type { AnyEvent, SubagentInfo } from '@contract';
import { bridge } from '../bridge/bridge';
import { applyEvent, viewOf, type ConversationView } from './conversation-reducer';

// The sub-agents' own conversations, shown live as threads nested under their parent's `delegate`
// cell (docs/ui.md#sub-agents). Each is a ConversationView kept by the same pure reducer as the open
// conversation, fed by the same events (they carry the sub-agent's conversation id), so a nested
// thread is the sub-agent's conversation as it is, never a second account of it.

interface SubagentThreadsState {
  views: Record<string, ConversationView>;
  /** A sub-agent was announced (`subagent.updated`): start its thread now, so no event is missed. */
  announced(info: SubagentInfo, parentId: string, cellId: string): void;
  /** The thread is shown: take the conversation as main has it (a finished sub-agent, a reload). */
  load(conversationId: string): Promise<void>;
  apply(event: AnyEvent): void;
  /** The sub-agent conversation a cell belongs to, for the cell's Run, Skip and Stop; null: not a sub-agent's. */
  conversationOfCell(cellId: string): string | null;
}

export const useSubagentThreads = create<SubagentThreadsState>((set, get) => ({
  views: {},
  announced(info, parentId, cellId) {
    if (get().views[info.conversationId]) return;
    const now = new Date().toISOString();
    // Empty until its events or the loaded conversation fill it; the fields are the ones it is made with.
    const skeleton = viewOf({
      version: 1,
      id: info.conversationId,
      title: info.name,
      createdAt: now,
      updatedAt: now,
      workspace: '',
      items: [],
      usage: info.usage,
      autoRun: false,
      parent: { conversationId: parentId, cellId, name: info.name },
    });
    set({ views: { ...get().views, [info.conversationId]: skeleton } });
    void get().load(info.conversationId);
  },
  async load(conversationId) {
    // Events emitted before main read the conversation are in it; those after arrive after this answer
    // on the same connection and apply on top (as the open conversation's reload does, app-store.ts).
    const conv = await bridge['conversation.get']({ conversationId }).catch(() => null);
    if (!conv) return;
    const before = get().views[conversationId];
    const view = viewOf(conv);
    set({
      views: { ...get().views, [conversationId]: before ? { ...view, busy: before.busy, turnStartedAt: before.turnStartedAt } : view },
    });
  },
  apply(event) {
    const views = get().views;
    const id = (event.payload as { conversationId?: string | null }).conversationId;
    const view = id ? views[id] : undefined;
    if (!view) return;
    const next = applyEvent(view, event);
    if (next !== view) set({ views: { ...views, [view.conv.id]: next } });
  },
  conversationOfCell(cellId) {
    for (const view of Object.values(get().views)) if (view.conv.items.some((i) => i.id === cellId)) return view.conv.id;
    return null;
  },
}));
