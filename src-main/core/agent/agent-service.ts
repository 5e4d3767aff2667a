import type { Attachment, Conversation, UserItem } from '@contract';
import { errorMessage } from '../bridge/dispatch';
import { newId, now } from './ids';
import { LiveConversation } from './live-conversation';
import { runTurn, type TurnDeps } from './turn';

/** Owns the open conversations and their turns; the handler table calls into it. */
export class AgentService {
  private readonly live = new Map<string, LiveConversation>();

  constructor(private readonly deps: TurnDeps) {}

  async open(conversationId: string): Promise<LiveConversation> {
    let live = this.live.get(conversationId);
    if (!live) {
      live = new LiveConversation(await this.deps.conversations.get(conversationId));
      this.live.set(conversationId, live);
    }
    return live;
  }

  /** The conversation as it is now, including a turn in progress. */
  async snapshot(conversationId: string): Promise<Conversation> {
    const live = this.live.get(conversationId);
    return live ? live.conv : this.deps.conversations.get(conversationId);
  }

  async send(conversationId: string, text: string, attachments: Attachment[]): Promise<UserItem> {
    const live = await this.open(conversationId);
    const item: UserItem = { kind: 'user', id: newId(), text, attachments, createdAt: now() };
    if (live.conv.items.length === 0 && live.conv.title === 'New conversation') {
      live.conv.title = text.replace(/\s+/g, ' ').trim().slice(0, 80);
    }
    if (live.turn) {
      // The user wrote while the agent works: it joins the history at the next model call, and a
      // cell waiting for approval is taken as declined (the user is answering instead).
      live.queued.push(item);
      for (const item of live.conv.items) {
        if (item.kind === 'cell' && item.status === 'awaiting-approval') live.approvals.decide(item.id, { kind: 'skip' });
      }
      return item;
    }
    live.conv.items.push(item);
    this.deps.events.emit('item.added', { conversationId, item });
    await this.deps.conversations.save(live.conv);
    this.deps.events.emit('conversation.updated', { summary: summaryOf(live.conv) });
    this.startTurn(live);
    return item;
  }

  stop(conversationId: string): void {
    const live = this.live.get(conversationId);
    live?.turn?.controller.abort();
    this.deps.exec.interrupt(conversationId);
  }

  approve(conversationId: string, cellId: string, code: string | null, always: boolean): void {
    this.decide(conversationId, cellId, { kind: 'run', code, always });
  }

  skip(conversationId: string, cellId: string): void {
    this.decide(conversationId, cellId, { kind: 'skip' });
  }

  interruptCell(conversationId: string, cellId: string): void {
    const live = this.live.get(conversationId);
    if (!live || live.runningCellId !== cellId || !live.runController) throw new Error(`cell ${cellId} is not running`);
    live.runController.abort();
  }

  /** Waits for running turns to end (used on shutdown and in tests). */
  async idle(conversationId: string): Promise<void> {
    await this.live.get(conversationId)?.turn?.done;
  }

  async dispose(): Promise<void> {
    for (const live of this.live.values()) live.turn?.controller.abort();
    await Promise.all([...this.live.values()].map((l) => l.turn?.done));
  }

  private decide(conversationId: string, cellId: string, decision: Parameters<LiveConversation['approvals']['decide']>[1]): void {
    const live = this.live.get(conversationId);
    if (!live || !live.approvals.decide(cellId, decision)) throw new Error(`cell ${cellId} is not waiting for approval`);
  }

  private startTurn(live: LiveConversation): void {
    const controller = new AbortController();
    const done = runTurn(live, this.deps, controller.signal)
      .catch((err: unknown) => {
        this.deps.events.emit('error', { conversationId: live.conv.id, message: errorMessage(err), code: 'turn-failed' });
      })
      .finally(() => {
        live.turn = null;
        this.deps.events.emit('conversation.updated', { summary: summaryOf(live.conv) });
        // A message written during the last moments of a turn starts the next one.
        const next = live.queued.shift();
        if (next) {
          live.conv.items.push(next);
          this.deps.events.emit('item.added', { conversationId: live.conv.id, item: next });
          this.startTurn(live);
        }
      });
    live.turn = { controller, done };
  }
}

export function summaryOf(conv: Conversation) {
  return { id: conv.id, title: conv.title, createdAt: conv.createdAt, updatedAt: conv.updatedAt, workspace: conv.workspace };
}
