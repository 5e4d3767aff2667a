import type { AnyEvent, CellItem, Conversation, EventPayload, RequestInput, RequestName, RequestOutput } from '@contract';
import type { App } from '../core/app';
import { createDispatcher } from '../core/bridge/dispatch';

export type TurnEnd = EventPayload<'turn.end'>;
export interface SubagentRef {
  conversationId: string;
  name: string;
}

/**
 * The CLI's handle on the core: requests go through the same dispatcher both transports use (so inputs
 * are validated by the contract's schemas), and events arrive from the same bus.
 */
export class CliSession {
  conversationId: string;
  /** The conversation's folder (where its code runs and its runs' full-output files are). */
  workspace: string;
  lastUsage: EventPayload<'usage.updated'> | null = null;
  private readonly dispatch;
  private turnWaiters: Array<(end: TurnEnd) => void> = [];
  private readonly listeners = new Set<(event: AnyEvent) => void>();
  /** This conversation's sub-agents (docs/agent.md#sub-agents): their conversation id → name. */
  private readonly subagents = new Map<string, string>();
  /** A sub-agent's questions (its cells to approve, its installs, hosts and input) → its conversation. */
  private readonly questionOwners = new Map<string, string>();
  private readonly subListeners = new Set<(event: AnyEvent, sub: SubagentRef) => void>();
  private readonly unsubscribe: () => void;

  constructor(
    readonly app: App,
    conversation: Conversation,
  ) {
    this.conversationId = conversation.id;
    this.workspace = conversation.workspace;
    this.dispatch = createDispatcher(app.handlers);
    this.unsubscribe = app.events.subscribe((event) => {
      const sub = this.subagentOf(event);
      if (sub) {
        for (const listener of this.subListeners) listener(event, sub);
        return;
      }
      if (!this.concerns(event)) return;
      if (event.name === 'usage.updated') this.lastUsage = event.payload;
      for (const listener of this.listeners) listener(event);
      if (event.name === 'turn.end') for (const resolve of this.turnWaiters.splice(0)) resolve(event.payload);
    });
  }

  /** Calls a request as a transport would; a refusal becomes an Error with the app's message. */
  async call<N extends RequestName>(name: N, input: RequestInput<N>): Promise<RequestOutput<N>> {
    // In-process, with the trust of the desktop app's own IPC.
    const result = await this.dispatch(name, input, { transport: 'ipc' });
    if (!result.ok) throw new Error(result.error.message.replace(/^[\w.-]+: /, ''));
    return result.result as RequestOutput<N>;
  }

  onEvent(listener: (event: AnyEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The events of this conversation's sub-agents, each with the sub-agent it comes from. */
  onSubagentEvent(listener: (event: AnyEvent, sub: SubagentRef) => void): () => void {
    this.subListeners.add(listener);
    return () => this.subListeners.delete(listener);
  }

  /** Resolves at the next turn.end of this conversation. */
  nextTurnEnd(): Promise<TurnEnd> {
    return new Promise((resolve) => this.turnWaiters.push(resolve));
  }

  async send(text: string): Promise<TurnEnd> {
    const ended = this.nextTurnEnd();
    await this.call('chat.send', { conversationId: this.conversationId, text });
    return ended;
  }

  running(): boolean {
    return this.app.context.agent.isRunning(this.conversationId);
  }

  /** Resolves once no turn of this conversation runs (turn.end is sent a moment before the turn lets go). */
  idle(): Promise<void> {
    return this.app.context.agent.idle(this.conversationId);
  }

  stop(): Promise<unknown> {
    return this.call('chat.stop', { conversationId: this.conversationId });
  }

  approve(cell: CellItem, code: string | null, always = false): Promise<unknown> {
    return this.call('cell.approve', {
      conversationId: this.ownerOf(cell.id),
      cellId: cell.id,
      ...(code !== null ? { code } : {}),
      ...(always ? { always } : {}),
    });
  }

  /** `unasked`: nobody was there to ask (no terminal), which the model is told as such. */
  skip(cell: CellItem, unasked = false): Promise<unknown> {
    return this.call('cell.skip', { conversationId: this.ownerOf(cell.id), cellId: cell.id, ...(unasked ? { unasked } : {}) });
  }

  conversation(conversationId = this.conversationId): Promise<Conversation> {
    return this.call('conversation.get', { conversationId });
  }

  switchTo(conversation: Conversation): void {
    this.conversationId = conversation.id;
    this.workspace = conversation.workspace;
    this.lastUsage = null;
  }

  close(): void {
    this.unsubscribe();
  }

  /**
   * The conversation a question (a cell to approve, by its id, or an install, host or input question,
   * by its questionId) belongs to: this one, or one of its sub-agents, whose questions reach the person
   * here and whose answers must go to it (answered under the parent's id they would find no question,
   * and the sub-agent would wait on).
   */
  ownerOf(id: string): string {
    return this.questionOwners.get(id) ?? this.conversationId;
  }

  private subagentOf(event: AnyEvent): SubagentRef | null {
    if (event.name === 'subagent.updated' && event.payload.conversationId === this.conversationId)
      this.subagents.set(event.payload.subagent.conversationId, event.payload.subagent.name);
    const id = (event.payload as { conversationId?: string | null }).conversationId;
    const name = id ? this.subagents.get(id) : undefined;
    if (!id || name === undefined) return null;
    const question = questionOf(event);
    if (question) this.questionOwners.set(question, id);
    return { conversationId: id, name };
  }

  private concerns(event: AnyEvent): boolean {
    const payload = event.payload as { conversationId?: string | null };
    return payload.conversationId === this.conversationId || (event.name === 'error' && payload.conversationId === null);
  }
}

/** The id a sub-agent's question is answered by, for the events that ask the person something. */
function questionOf(event: AnyEvent): string | null {
  if (event.name === 'cell.awaiting-approval') return event.payload.cell.id;
  if (event.name === 'install.awaiting-approval' || event.name === 'network.awaiting-approval' || event.name === 'cell.input-requested')
    return event.payload.questionId;
  return null;
}
