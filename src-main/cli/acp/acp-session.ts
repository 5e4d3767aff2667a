import {
  RequestError,
  type AgentContext,
  type ContentBlock,
  type SessionUpdate,
  type StopReason,
  type ToolCallContent,
} from '@agentclientprotocol/sdk';
import type { AnyEvent, CellItem, Conversation } from '@contract';
import type { App } from '../../core/app';
import type { ExportMeta } from '../../core/notebook/ipynb-export';
import { CliSession, type TurnEnd } from '../cli-session';
import { runSlashCommand } from './acp-commands';
import { cellContent, codeContent, locationsOf, plainTail, statusOf, toolCallOf } from './acp-cells';
import { diffContents } from './acp-diffs';
import { promptText } from './acp-prompt';
import type { ModeFacts } from './acp-modes';
import { AcpQuestions } from './acp-questions';

/** How often a running cell's output is sent: each update carries the whole tail, so not per chunk. */
const OUTPUT_EVERY_MS = 100;

interface LiveCell {
  cell: CellItem;
  raw: string;
  timer: NodeJS.Timeout | null;
}

interface Turn {
  cancelled: boolean;
  errors: string[];
  cells: Map<string, LiveCell>;
  questions: AcpQuestions;
  answers: Promise<void>[];
}

/**
 * One ACP session: one of the app's conversations (so the desktop app lists it too), driven through
 * the same requests and events as `oi -m`. Updates go out in the order the events came, and a
 * prompt's answer only after the last of them.
 */
export class AcpSession {
  readonly cli: CliSession;
  /** The conversation's folder: the tool calls' file locations are absolute paths in it. */
  private readonly workspace: string;
  private sent: Promise<void> = Promise.resolve();
  private turn: Turn | null = null;
  /** From a prompt's arrival to its answer: a /command or a saved command's file is awaited before `turn` is set. */
  private answering = false;
  /** The conversation's auto-run switch and plan mode, kept by its events (acp-agent.ts). */
  readonly mode: ModeFacts;

  constructor(
    app: App,
    conversation: Conversation,
    private readonly client: AgentContext,
    /** For /export's notebook metadata. */
    private readonly meta: () => ExportMeta,
  ) {
    this.cli = new CliSession(app, conversation);
    this.workspace = conversation.workspace;
    this.mode = { autoRun: conversation.autoRun, planMode: conversation.planMode ?? false };
  }

  get id(): string {
    return this.cli.conversationId;
  }

  /** Sends in call order; an update still being made (a cell's diffs) holds back the ones after it. */
  send(update: SessionUpdate | Promise<SessionUpdate>): void {
    // A client gone mid-turn must not stop the turn's bookkeeping; the connection's end stops the turn.
    this.sent = this.sent
      .then(async () => this.client.notify('session/update', { sessionId: this.id, update: await update }))
      .catch(() => undefined);
  }

  /** Resolves once every update so far is written. */
  flushed(): Promise<void> {
    return this.sent;
  }

  async prompt(blocks: ContentBlock[]): Promise<StopReason> {
    if (this.answering || this.turn || this.cli.running()) {
      throw new RequestError(-32600, 'this session is already answering a prompt; cancel it first');
    }
    this.answering = true;
    try {
      return await this.answer(blocks);
    } finally {
      this.answering = false;
    }
  }

  private async answer(blocks: ContentBlock[]): Promise<StopReason> {
    const say = (text: string) => this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
    const command = await runSlashCommand(this.cli, promptText(blocks), this.meta, say);
    if (command.ran) {
      await this.flushed();
      return 'end_turn';
    }
    const text = command.message;
    const turn: Turn = {
      cancelled: false,
      errors: [],
      cells: new Map(),
      questions: new AcpQuestions(this.client, this.id, this.cli),
      answers: [],
    };
    this.turn = turn;
    const off = this.cli.onEvent((event) => this.handle(event, turn));
    let end: TurnEnd;
    try {
      end = await this.cli.send(text);
      // The reply says the turn is over: a next prompt sent at once must find it over, not still
      // letting go after turn.end (seen after a cancel on a loaded machine).
      await Promise.all([this.cli.idle(), ...turn.answers]);
    } finally {
      off();
      for (const live of turn.cells.values()) if (live.timer) clearTimeout(live.timer);
      this.turn = null;
    }
    await this.flushed();
    if (turn.cancelled) return 'cancelled';
    if (end.reason === 'error') throw new RequestError(-32603, turn.errors.join('\n') || 'the turn failed');
    if (end.reason === 'attempts-exhausted' || end.reason === 'budget') return 'max_turn_requests';
    return 'end_turn';
  }

  /** session/cancel: the running code and the model call stop, open questions are withdrawn; the session stays. */
  cancel(): void {
    const turn = this.turn;
    if (!turn) return;
    turn.cancelled = true;
    turn.questions.cancelAll();
    void this.cli.stop().catch(() => undefined);
  }

  close(): void {
    this.cancel();
    this.cli.close();
  }

  private handle(event: AnyEvent, turn: Turn): void {
    switch (event.name) {
      case 'assistant.delta':
        if (event.payload.text) this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.payload.text } });
        break;
      case 'assistant.thinking-delta':
        if (event.payload.text) this.send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: event.payload.text } });
        break;
      case 'item.added':
        if (event.payload.item.kind === 'cell') this.announce(event.payload.item, turn);
        break;
      case 'cell.awaiting-approval': {
        const { cell } = event.payload;
        this.announce(cell, turn);
        // Asked after the tool call is on the client's screen.
        const answered = this.flushed().then(() => (turn.cancelled ? this.cli.skip(cell) : turn.questions.cell(cell)));
        turn.answers.push(answered.then(noop, noop));
        break;
      }
      case 'install.awaiting-approval':
        turn.answers.push(turn.questions.install(event.payload).then(noop, noop));
        break;
      case 'network.awaiting-approval':
        turn.answers.push(turn.questions.network(event.payload).then(noop, noop));
        break;
      case 'cell.running': {
        const live = turn.cells.get(event.payload.cellId);
        if (!live) break;
        live.cell = { ...live.cell, code: event.payload.code, status: 'running' };
        this.send({
          sessionUpdate: 'tool_call_update',
          toolCallId: live.cell.id,
          status: 'in_progress',
          content: [codeContent(live.cell.language, live.cell.code)],
          rawInput: { language: live.cell.language, code: live.cell.code },
        });
        break;
      }
      case 'cell.terminal': {
        const live = turn.cells.get(event.payload.cellId);
        if (!live) break;
        live.raw += event.payload.data;
        live.timer ??= setTimeout(() => this.sendOutput(live), OUTPUT_EVERY_MS);
        break;
      }
      case 'cell.done': {
        const { cell } = event.payload;
        const live = turn.cells.get(cell.id);
        if (live?.timer) clearTimeout(live.timer);
        turn.cells.delete(cell.id);
        this.send(
          this.diffs(cell).then((diffs) => ({
            sessionUpdate: 'tool_call_update',
            toolCallId: cell.id,
            status: statusOf(cell.status),
            content: [...cellContent(cell), ...diffs],
            locations: locationsOf(cell, this.workspace),
            rawOutput: { status: cell.status, exitCode: cell.exitCode, durationMs: cell.durationMs },
          })),
        );
        break;
      }
      case 'notice':
        if (event.payload.item.level !== 'info') this.send(noticeChunk(event.payload.item.level, event.payload.item.text));
        break;
      case 'error':
        turn.errors.push(event.payload.message);
        break;
      default:
    }
  }

  /** A cell becomes a tool call once, when it first appears (the model starts writing it, or it waits for approval). */
  private announce(cell: CellItem, turn: Turn): void {
    if (turn.cells.has(cell.id)) return;
    turn.cells.set(cell.id, { cell, raw: '', timer: null });
    this.send({ sessionUpdate: 'tool_call', ...toolCallOf(cell, this.workspace) });
  }

  /** The cell's changed text files whole before and after, from its checkpoints (acp-diffs.ts). */
  private async diffs(cell: CellItem): Promise<ToolCallContent[]> {
    if (!cell.changes?.checkpointed || cell.changes.files.length === 0) return [];
    try {
      const { files } = await this.cli.call('checkpoints.diff', { conversationId: this.id, cellId: cell.id, wholeText: true });
      return diffContents(files, this.workspace);
    } catch {
      return []; // The changes stay named in the cell's "Files:" line.
    }
  }

  private sendOutput(live: LiveCell): void {
    live.timer = null;
    this.send({
      sessionUpdate: 'tool_call_update',
      toolCallId: live.cell.id,
      content: cellContent({ ...live.cell, outputs: [] }, plainTail(live.raw)),
    });
  }
}

const noop = () => undefined;

export function noticeChunk(level: 'warning' | 'error', text: string): SessionUpdate {
  return { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `\n\n> **${level}:** ${text}\n\n` } };
}
