import type { ContentBlock, SessionUpdate, ToolCall, ToolCallContent, ToolCallStatus, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { AssistantItem, CellItem, CellOutput, CellStatus, Settings, Task } from '@contract';
import type { EventBus } from '../bridge/event-bus';
import type { CheckpointService } from '../checkpoints/checkpoint-service';
import { checkpointAfter, checkpointBefore, type CellCheckpoint } from '../agent/cell-checkpoints';
import { newCell } from '../conversations/new-cell';
import { newId, now } from '../agent/ids';
import type { LiveConversation } from '../agent/live-conversation';
import { finishCell } from '../agent/turn-cell';
import { addItem, setTasks } from '../agent/conversation-changes';

// A hosted agent's session/update notifications written into our conversation format, so they render
// like our agent's and export to a notebook the same way (docs/acp.md#hosting): its words and thinking
// are an assistant item, each of its tool calls a cell named like an MCP call (`mcp:acp/<kind>`,
// exported as a markdown cell showing the call and its result), its plan the conversation's task list.

/**
 * Whether something the agent wants to change (a file write, a terminal command) may happen: our approval,
 * with the person's auto-run and beforeCell hooks applying (hosted-agents.ts).
 */
export type ChangeGate = (cell: CellItem) => Promise<'run' | { refused: string }>;

/** The language of a hosted agent's tool call or request: an MCP-style call of the agent named `server`. */
export function acpLanguage(tool: string): string {
  return `mcp:acp/${tool.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 48)}`;
}

/** A cell for something the agent does (a tool call, a file write, a permission question), added to the conversation. */
export function addAgentCell(
  live: LiveConversation,
  events: EventBus,
  step: string,
  fields: { agent: string; tool: string; code: string; toolCallId: string | null; status: CellStatus },
): CellItem {
  const cell: CellItem = {
    ...newCell({
      id: newId(),
      step,
      toolCallId: fields.toolCallId,
      language: acpLanguage(fields.tool),
      code: fields.code,
      status: fields.status,
    }),
    mcp: { server: fields.agent.slice(0, 64), tool: fields.tool.slice(0, 256) },
  };
  addItem(live.conv, events, cell);
  return cell;
}

/** What the record needs to checkpoint the calls an agent carries out itself. */
export interface RecordCheckpoints {
  checkpoints?: CheckpointService;
  settings: () => Settings;
}

/** One prompt turn's record: the assistant item its words go to, the cells of its tool calls. */
export class HostedRecord {
  readonly step = newId();
  private assistant: AssistantItem | null = null;
  private readonly calls = new Map<string, CellItem>();
  /** The checkpoint taken before each allowed call the agent carries out itself, by cell id. */
  private readonly before = new Map<string, CellCheckpoint | null>();
  private readonly settling = new Set<Promise<void>>();

  constructor(
    private readonly live: LiveConversation,
    private readonly events: EventBus,
    private readonly agent: string,
    private readonly deps: RecordCheckpoints,
  ) {}

  /**
   * The person allowed a call the agent will carry out with its own file access or its own commands
   * (Claude Code's Write, Edit and Bash): the workspace is checkpointed now, before the agent is told,
   * and again when it reports the call finished, so the cell shows what the call changed and rewinds
   * like ours. (Whatever else the agent changed meanwhile, in the same folder, is in the same pair.)
   */
  async checkpointFor(cell: CellItem): Promise<void> {
    if (!this.deps.checkpoints || this.before.has(cell.id)) return;
    this.before.set(cell.id, await checkpointBefore(this.deps.checkpoints, this.live.conv, cell));
  }

  /** The checkpoints still being taken after calls the agent finished. */
  async settled(): Promise<void> {
    while (this.settling.size > 0) await Promise.all([...this.settling]);
  }

  /** The cell of a tool call the agent announced, if any (a permission request names one). */
  cellOf(toolCallId: string): CellItem | undefined {
    return this.calls.get(toolCallId);
  }

  /** A cell for a call announced only by a permission request. */
  callCell(call: ToolCallUpdate): CellItem {
    return this.cellOf(call.toolCallId) ?? this.startCall(call);
  }

  apply(update: SessionUpdate): void {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        return this.words(update.content, 'text');
      case 'agent_thought_chunk':
        return this.words(update.content, 'thinking');
      case 'tool_call':
        // Codex asks permission for a call before announcing it, then announces it under the same id:
        // one call, one cell (the one the approval card was on), not a second one left running.
        if (this.calls.has(update.toolCallId)) return this.updateCall(update);
        this.startCall(update);
        return;
      case 'tool_call_update':
        return this.updateCall(update);
      case 'plan':
        setTasks(
          this.live.conv,
          this.events,
          update.entries.slice(0, 100).map((entry, i): Task => ({
            id: i + 1,
            title: entry.content.replace(/\s+/g, ' ').trim().slice(0, 200) || `step ${i + 1}`,
            state: entry.status === 'completed' ? 'done' : entry.status === 'in_progress' ? 'active' : 'pending',
          })),
        );
        return;
      default:
        // Mode, command and session-info updates have no place in the conversation yet.
        return;
    }
  }

  /** The turn ended: the assistant item is done, and calls the agent left open are settled. */
  finish(interrupted: boolean): void {
    if (this.assistant) {
      this.assistant.interrupted = interrupted;
      this.events.emit('assistant.done', { conversationId: this.live.conv.id, item: this.assistant });
    }
    for (const cell of this.calls.values()) {
      if (cell.status === 'running' || cell.status === 'awaiting-approval')
        finishCell(this.live, this.events, cell, 'interrupted', 'The agent ended its turn without finishing this call.');
    }
  }

  private words(block: ContentBlock, kind: 'text' | 'thinking'): void {
    if (block.type !== 'text') return;
    const conversationId = this.live.conv.id;
    // A tool call between two runs of words starts a new assistant item, so the order reads as it happened.
    if (!this.assistant || this.live.conv.items.at(-1) !== this.assistant) {
      this.assistant = { kind: 'assistant', id: newId(), step: this.step, text: '', thinking: [], interrupted: false, createdAt: now() };
      addItem(this.live.conv, this.events, this.assistant);
    }
    const item = this.assistant;
    if (kind === 'text') {
      item.text += block.text;
      this.events.emit('assistant.delta', { conversationId, itemId: item.id, text: block.text });
      return;
    }
    if (item.thinking.length === 0) item.thinking.push({ thinking: '', signature: '' });
    const last = item.thinking[item.thinking.length - 1]!;
    last.thinking += block.text;
    this.events.emit('assistant.thinking-delta', { conversationId, itemId: item.id, block: item.thinking.length - 1, text: block.text });
  }

  private startCall(call: ToolCall | ToolCallUpdate): CellItem {
    const code = [call.title ?? call.toolCallId, call.rawInput !== undefined ? JSON.stringify(call.rawInput, null, 2) : '']
      .filter(Boolean)
      .join('\n');
    const cell = addAgentCell(this.live, this.events, this.step, {
      agent: this.agent,
      tool: call.kind ?? 'other',
      code,
      toolCallId: call.toolCallId,
      status: 'running',
    });
    cell.startedAt = now();
    this.calls.set(call.toolCallId, cell);
    this.updateCall(call);
    return cell;
  }

  private updateCall(update: ToolCallUpdate | ToolCall): void {
    const cell = this.calls.get(update.toolCallId);
    // A call the person declined stays declined, whatever the agent reports of it afterwards.
    if (!cell || cell.status === 'skipped') return;
    if (update.content?.length) cell.outputs = update.content.flatMap(outputOf);
    // Codex reports a command's output only in rawOutput (its stdout, stderr and exit code), no content.
    else if (update.rawOutput !== undefined && update.rawOutput !== null) cell.outputs = rawOutputs(update.rawOutput);
    const status = update.status ?? null;
    if (status === 'completed' || status === 'failed') {
      cell.durationMs = cell.startedAt ? Date.now() - Date.parse(cell.startedAt) : null;
      const text = cell.outputs.map((o) => (o.output_type === 'stream' ? o.text : '')).join('');
      if (!this.before.has(cell.id)) return finishCell(this.live, this.events, cell, statusOf(status), text);
      const before = this.before.get(cell.id) ?? null;
      this.before.delete(cell.id);
      const settle = checkpointAfter(this.deps.checkpoints, this.live.conv, cell, before, this.deps.settings()).then((changes) => {
        if (changes) cell.changes = changes;
        finishCell(this.live, this.events, cell, statusOf(status), text);
      });
      this.settling.add(settle);
      void settle.finally(() => this.settling.delete(settle));
    }
  }
}

function statusOf(status: ToolCallStatus): CellStatus {
  return status === 'failed' ? 'failed' : 'done';
}

/** A tool call's content as cell outputs: text as a stream, images as display data, diffs as text. */
function outputOf(content: ToolCallContent): CellOutput[] {
  if (content.type === 'diff') {
    return [{ output_type: 'stream', name: 'stdout', text: `${content.oldText == null ? 'new file' : 'changed'}: ${content.path}\n` }];
  }
  if (content.type === 'terminal') return [{ output_type: 'stream', name: 'stdout', text: `[terminal ${content.terminalId}]\n` }];
  const block = content.content;
  if (block.type === 'text')
    return [{ output_type: 'stream', name: 'stdout', text: block.text.endsWith('\n') ? block.text : `${block.text}\n` }];
  if (block.type === 'image') return [{ output_type: 'display_data', data: { [block.mimeType]: block.data }, metadata: {} }];
  return [];
}

/** The most of an agent's raw tool output a cell keeps (the rest is cut, and the cut said). */
const RAW_OUTPUT_CHARS = 200_000;

/**
 * A call's rawOutput as cell outputs, when the agent sent no content (ACP leaves its shape to the
 * agent): text as it is; a command's stdout and stderr as streams (Codex's form); anything else as JSON.
 */
function rawOutputs(raw: unknown): CellOutput[] {
  const stream = (name: 'stdout' | 'stderr', text: string): CellOutput[] => {
    if (!text) return [];
    const cut =
      text.length > RAW_OUTPUT_CHARS
        ? `${text.slice(0, RAW_OUTPUT_CHARS)}\n[… ${text.length - RAW_OUTPUT_CHARS} more characters not kept]`
        : text;
    return [{ output_type: 'stream', name, text: cut.endsWith('\n') ? cut : `${cut}\n` }];
  };
  if (typeof raw === 'string') return stream('stdout', raw);
  if (typeof raw === 'object' && raw !== null) {
    const fields = raw as Record<string, unknown>;
    if (typeof fields.stdout === 'string' || typeof fields.stderr === 'string') {
      const code = typeof fields.exit_code === 'number' && fields.exit_code !== 0 ? `exit code ${fields.exit_code}` : '';
      return [
        ...stream('stdout', typeof fields.stdout === 'string' ? fields.stdout : ''),
        ...stream('stderr', typeof fields.stderr === 'string' ? fields.stderr : ''),
        ...stream('stderr', code),
      ];
    }
  }
  return stream('stdout', JSON.stringify(raw, null, 2) ?? '');
}
