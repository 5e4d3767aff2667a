import {
  errorMessage,
  type Attachment,
  type Conversation,
  type ConversationSummary,
  type ModelChoice,
  type NoticeItem,
  type UserItem,
} from '@contract';
import type { RestoreOutcome } from '../checkpoints/checkpoint-service';
import { lastUserIndex, withoutLastAnswer, withoutLastTurn } from '../conversations/history-edits';
import { pairingProblem } from '../llm/model-pairing';
import { IdleSweeper } from './idle-sweeper';
import { newId, now } from './ids';
import { LiveConversation } from './live-conversation';
import { summaryOf, type OpenConversations } from './open-conversations';
import { runTurn } from './turn';
import type { TurnDeps } from './turn-deps';
import { Subagents } from './subagents/subagent-runner';
import { addItem, addNoticeItem, rewriteHistory, setModelChoice, setTitle } from './conversation-changes';

/**
 * What the composition root (app.ts) gives the agent. It builds none of its dependencies itself, so
 * that there is one place where the app is wired (the tests' harness passes its own the same way).
 */
export type AgentDeps = TurnDeps & {
  /** The open conversations, shared with install questions and remote kernels. */
  open: OpenConversations;
  /** Turns of conversations driven by an outside ACP agent (core/hosted-agents, docs/acp.md#hosting). */
  hosted?: HostedTurns;
};

/** What the agent needs of the hosted agents: a turn, and closing a conversation's agent. */
export interface HostedTurns {
  runTurn(live: LiveConversation, signal: AbortSignal): Promise<void>;
  close(conversationId: string): Promise<void>;
}

export { summaryOf };

const UNTITLED = 'New conversation';

/** Owns the open conversations and their turns; the handler table calls into it. */
export class AgentService {
  private readonly live: OpenConversations;
  private readonly deps: TurnDeps;
  /** Ends the sessions of conversations left unused, and lets go of their open copies. */
  private readonly sweeper: IdleSweeper;
  private readonly hosted: HostedTurns | undefined;

  constructor({ open, hosted, ...deps }: AgentDeps) {
    this.hosted = hosted;
    this.live = open;
    this.deps = { ...deps };
    // Sub-agents run through this same turn loop and these same dependencies: one way in (docs/agent.md#sub-agents).
    this.deps.subagents = new Subagents({
      conversations: deps.conversations,
      open: this.live,
      events: deps.events,
      settings: deps.settings,
      runTurn: (live, signal) => runTurn(live, this.deps, signal),
    });
    this.sweeper = new IdleSweeper({ exec: deps.exec, open: this.live, settings: deps.settings });
    this.sweeper.start();
  }

  /** One idle sweep now, or as it would go at `now` (tests look ahead without waiting). */
  sweepIdle(now?: number): Promise<{ ended: string[]; released: string[] }> {
    return this.sweeper.sweep(now);
  }

  async open(conversationId: string): Promise<LiveConversation> {
    return this.live.open(conversationId, (opened) => this.warm(opened.conv.workspace));
  }

  /** The conversation as it is now, including a turn in progress. */
  async snapshot(conversationId: string): Promise<Conversation> {
    const live = this.live.get(conversationId);
    if (live) return live.conv;
    const conv = await this.live.snapshot(conversationId);
    this.warm(conv.workspace);
    return conv;
  }

  async send(conversationId: string, text: string, attachments: Attachment[]): Promise<UserItem> {
    const live = await this.open(conversationId);
    const item: UserItem = { kind: 'user', id: newId(), text, attachments, createdAt: now() };
    if (live.conv.items.length === 0 && live.conv.title === UNTITLED) setTitle(live.conv, this.deps.events, titleFrom(text, attachments));
    if (!live.conv.modelChoice) {
      // From its first message on, a conversation keeps the model it was started with.
      const { provider, model, baseUrl } = this.deps.settings();
      setModelChoice(live.conv, this.deps.events, { provider, model, baseUrl });
    }
    if (live.turn || live.starting) {
      // The user wrote while the agent works (or while its turn is starting: never a second turn
      // beside it): it joins the history at the next model call, and a cell waiting for approval is
      // taken as declined (the user is answering instead).
      live.queued.push(item);
      for (const item of live.conv.items) {
        if (item.kind === 'cell' && item.status === 'awaiting-approval') live.approvals.decide(item.id, { kind: 'skip' });
      }
      return item;
    }
    addItem(live.conv, this.deps.events, item);
    live.starting = true;
    try {
      await this.commit(live);
    } finally {
      live.starting = false;
    }
    this.startTurn(live);
    return item;
  }

  /** Replaces the last user message with new text and answers it again. */
  async editAndResend(conversationId: string, text: string): Promise<UserItem> {
    const live = await this.idleLive(conversationId, 'edit the last message');
    const at = lastUserIndex(live.conv.items);
    const old = live.conv.items[at];
    if (!old || old.kind !== 'user') throw new Error('there is no message to edit in this conversation');
    const item: UserItem = { ...old, id: newId(), text, createdAt: now() };
    rewriteHistory(live.conv, [...live.conv.items.slice(0, at), item]);
    if (at === 0) setTitle(live.conv, this.deps.events, titleFrom(text, old.attachments));
    live.fitNoticed = { droppedTurns: 0, trimmedOutputs: 0, trimmedMessages: 0 };
    await this.commit(live, true);
    this.startTurn(live);
    return item;
  }

  /** Drops the answer to the last user message and asks the model again. */
  async regenerate(conversationId: string): Promise<void> {
    const live = await this.idleLive(conversationId, 'regenerate the answer');
    rewriteHistory(live.conv, withoutLastAnswer(live.conv.items));
    await this.commit(live, true);
    this.startTurn(live);
  }

  /** Removes the last user message and everything after it. */
  async undoLastTurn(conversationId: string): Promise<Conversation> {
    const live = await this.idleLive(conversationId, 'undo');
    rewriteHistory(live.conv, withoutLastTurn(live.conv.items));
    live.fitNoticed = { droppedTurns: 0, trimmedOutputs: 0, trimmedMessages: 0 };
    await this.commit(live, true);
    return live.conv;
  }

  /**
   * Changes a conversation's settings outside its items (its remote kernel). Through the open copy,
   * so the file and the copy a running turn saves cannot disagree.
   */
  async update(conversationId: string, change: (conv: Conversation) => void): Promise<void> {
    await this.open(conversationId);
    await this.live.update(conversationId, change);
  }

  async rename(conversationId: string, title: string): Promise<ConversationSummary> {
    const live = await this.open(conversationId);
    setTitle(live.conv, this.deps.events, title.replace(/\s+/g, ' ').trim() || UNTITLED);
    // Only the name changes: its place in the list and its time are those of its last activity.
    await this.commit(live);
    return summaryOf(live.conv);
  }

  /** The provider and model the conversation talks to from its next model call on. */
  async setModel(conversationId: string, choice: ModelChoice): Promise<Conversation> {
    const problem = pairingProblem(choice);
    if (problem) throw new Error(problem);
    const live = await this.open(conversationId);
    setModelChoice(live.conv, this.deps.events, { ...choice, model: choice.model.trim() });
    await this.commit(live);
    return live.conv;
  }

  /** Binds the conversation to a profile by name (its settings then come from it at each turn), or to none. */
  async setProfile(conversationId: string, name: string | null): Promise<Conversation> {
    const live = await this.open(conversationId);
    if (name === null) delete live.conv.profile;
    else live.conv.profile = name;
    await this.commit(live);
    return live.conv;
  }

  /** Who answers the conversation: an outside ACP agent by name, or ours (null); only before its first message. */
  async setHostedAgent(conversationId: string, agent: string | null): Promise<Conversation> {
    const live = await this.idleLive(conversationId, 'change its agent');
    if (live.conv.items.some((i) => i.kind === 'user'))
      throw new Error('this conversation has messages: another agent would not know them. Start a new conversation for it');
    await this.hosted?.close(conversationId);
    if (agent === null) delete live.conv.hostedAgent;
    else live.conv.hostedAgent = { name: agent, sessionId: null };
    await this.commit(live, true);
    return live.conv;
  }

  /** Stops its turn, closes its sessions and deletes its file. The workspace folder is left alone. */
  async delete(conversationId: string): Promise<void> {
    const live = this.live.get(conversationId);
    if (live?.turn) {
      live.turn.controller.abort();
      await live.turn.done;
    }
    this.live.forget(conversationId);
    await this.hosted?.close(conversationId).catch(() => undefined);
    await this.deps.exec.closeConversation(conversationId).catch(() => undefined);
    await this.deps.conversations.delete(conversationId);
  }

  stop(conversationId: string): void {
    const live = this.live.get(conversationId);
    live?.turn?.controller.abort();
    this.deps.exec.interrupt(conversationId);
  }

  approve(conversationId: string, cellId: string, code: string | null, always: boolean): void {
    this.decide(conversationId, cellId, { kind: 'run', code, always });
  }

  skip(conversationId: string, cellId: string, unasked = false): void {
    this.decide(conversationId, cellId, { kind: 'skip', unasked });
  }

  /** A proposed plan the person rejected, with their reason (docs/agent.md#plan-mode). */
  rejectPlan(conversationId: string, cellId: string, reason: string): void {
    this.decide(conversationId, cellId, { kind: 'skip', reason });
  }

  answerInstall(conversationId: string, questionId: string, install: boolean): void {
    this.decide(conversationId, questionId, install ? { kind: 'run', code: null, always: false } : { kind: 'skip' });
  }

  /**
   * Puts the workspace's files back as they were before `cellId` ran (checkpoints); with `cut`, the
   * conversation also goes back to the message that led to that cell. The model is told at its next call.
   */
  async rewind(conversationId: string, cellId: string, opts: { confirm: boolean; cut: boolean }): Promise<RestoreOutcome> {
    const checkpoints = this.deps.checkpoints;
    if (!checkpoints) throw new Error('checkpoints are not kept here');
    const live = await this.idleLive(conversationId, 'rewind');
    const release = live.hold();
    try {
      return await this.rewindHeld(live, checkpoints, cellId, opts);
    } finally {
      release();
    }
  }

  private async rewindHeld(
    live: LiveConversation,
    checkpoints: NonNullable<TurnDeps['checkpoints']>,
    cellId: string,
    opts: { confirm: boolean; cut: boolean },
  ): Promise<RestoreOutcome> {
    const outcome = await checkpoints.restore(live.conv, cellId, opts.confirm);
    if (outcome.status !== 'restored') return outcome;
    if (opts.cut) {
      const at = live.conv.items.findIndex((i) => i.id === cellId);
      let start = at;
      while (start > 0 && live.conv.items[start]?.kind !== 'user') start--;
      if (at >= 0) rewriteHistory(live.conv, live.conv.items.slice(0, Math.max(0, start)));
    }
    const item: NoticeItem = {
      kind: 'notice',
      id: newId(),
      level: 'info',
      text: `Files rewound to before that run: ${outcome.changedPaths} paths put back. Sessions keep their variables; restart them if the code holds files open.`,
      createdAt: now(),
      rewind: { cellId, changedPaths: outcome.changedPaths },
    };
    addNoticeItem(live.conv, this.deps.events, item);
    if (opts.cut) live.fitNoticed = { droppedTurns: 0, trimmedOutputs: 0, trimmedMessages: 0 };
    await this.commit(live, true);
    return outcome;
  }

  /** The person's answer to a running program's question: a line, or end-of-input. */
  answerInput(conversationId: string, questionId: string, answer: { text: string } | { eof: true }): void {
    const live = this.live.get(conversationId);
    const given = 'text' in answer ? ({ kind: 'line', text: answer.text } as const) : ({ kind: 'eof' } as const);
    if (!live || !live.inputs.answer(questionId, given))
      throw new Error('that question is no longer open (the program stopped waiting, or the run ended)');
  }

  /** Keys typed into the running cell's live terminal. */
  typeIntoCell(conversationId: string, cellId: string, data: string): void {
    const live = this.live.get(conversationId);
    if (!live || live.runningCellId !== cellId || !this.deps.exec.typeInto(conversationId, cellId, data))
      throw new Error(`cell ${cellId} is not running`);
  }

  interruptCell(conversationId: string, cellId: string): void {
    const live = this.live.get(conversationId);
    if (!live || live.runningCellId !== cellId || !live.runController) throw new Error(`cell ${cellId} is not running`);
    live.runController.abort();
  }

  /** Waits for running turns to end (used on shutdown and in tests). */
  async idle(conversationId: string): Promise<void> {
    // A message queued at the end of a turn starts the next one; wait for that too.
    for (let turn = this.live.get(conversationId)?.turn; turn; turn = this.live.get(conversationId)?.turn) await turn.done;
  }

  isRunning(conversationId: string): boolean {
    const live = this.live.get(conversationId);
    return !!live?.turn || !!live?.starting;
  }

  async dispose(): Promise<void> {
    this.sweeper.stop();
    for (const live of this.live.all()) live.turn?.controller.abort();
    await Promise.all(this.live.all().flatMap((l) => (l.turn ? [l.turn.done] : [])));
  }

  /** Runtime and package detection spawn processes: start them when a conversation is shown, not on send. */
  private warm(workspace: string): void {
    const settings = this.deps.settings();
    void this.deps.environment.render(workspace, settings.exec, settings.sandbox).catch(() => undefined);
  }

  private async idleLive(conversationId: string, what: string): Promise<LiveConversation> {
    const live = await this.open(conversationId);
    if (live.turn || live.starting) throw new Error(`cannot ${what} while the agent is working: stop the turn first`);
    return live;
  }

  private commit(live: LiveConversation, touched = false): Promise<void> {
    return this.live.commit(live, touched);
  }

  private decide(conversationId: string, cellId: string, decision: Parameters<LiveConversation['approvals']['decide']>[1]): void {
    const live = this.live.get(conversationId);
    if (!live || !live.approvals.decide(cellId, decision)) throw new Error(`cell ${cellId} is not waiting for approval`);
  }

  private startTurn(live: LiveConversation): void {
    const controller = new AbortController();
    // A conversation an outside agent answers is that agent's turn; everything around it is the same.
    const turn =
      live.conv.hostedAgent && this.hosted ? this.hosted.runTurn(live, controller.signal) : runTurn(live, this.deps, controller.signal);
    const done = turn
      .catch((err: unknown) => {
        this.deps.events.emit('error', { conversationId: live.conv.id, message: errorMessage(err), code: 'turn-failed' });
      })
      .finally(() => {
        live.turn = null;
        this.deps.events.emit('conversation.updated', { summary: summaryOf(live.conv) });
        // A message written during the last moments of a turn starts the next one.
        const next = live.queued.shift();
        if (next) {
          addItem(live.conv, this.deps.events, next);
          this.startTurn(live);
        }
      });
    live.turn = { controller, done };
  }
}

function titleFrom(text: string, attachments: readonly Attachment[] = []): string {
  const words = text.replace(/\s+/g, ' ').trim();
  // A message of attachments alone is named after them.
  const title = words || attachments.map((a) => a.name).join(', ');
  return title.slice(0, 80) || UNTITLED;
}
