import type { AssistantItem, CellItem, ConversationItem, TextCallDialect, UserItem } from '@contract';
import { toolCallOf } from './execute-tool';
import { writeCall, writeResult } from './text-call-dialects';

/** The conversation as the model sees it: user turns, and model steps with their runs' results. */
export type HistoryEntry =
  | { kind: 'user'; item: UserItem }
  | {
      kind: 'step';
      text: string;
      thinking: AssistantItem['thinking'];
      /** Cells sent as tool calls, each answered by one tool result. */
      toolCells: CellItem[];
      /** Cells sent as fenced code blocks inside `transcript`, answered together by one user message. */
      fencedCells: CellItem[];
      /** The step's text with its fenced cells written back as code blocks, in the order they came. */
      transcript: string;
    };

export interface HistoryOptions {
  /** False when the request declares no tools: every cell is then written as a fenced block. */
  tools: boolean;
}

/**
 * Groups items by model step so adapters can rebuild "assistant message with tool calls, then one
 * result per call" — the shape both OpenAI and Anthropic require. Notices are the app's, not the model's.
 */
export function toHistory(items: ConversationItem[], opts: HistoryOptions = { tools: true }): HistoryEntry[] {
  const out: HistoryEntry[] = [];
  let current: Extract<HistoryEntry, { kind: 'step' }> | null = null;
  let currentStep: string | null = null;
  for (const item of items) {
    // Notices are the app's; a screen action the code asked for is told by its code cell's output.
    if (item.kind === 'notice' || (item.kind === 'cell' && item.fromCell)) continue;
    if (item.kind === 'user') {
      current = null;
      currentStep = null;
      out.push({ kind: 'user', item });
      continue;
    }
    if (!current || currentStep !== item.step) {
      current = { kind: 'step', text: '', thinking: [], toolCells: [], fencedCells: [], transcript: '' };
      currentStep = item.step;
      out.push(current);
    }
    if (item.kind === 'assistant') {
      current.text += item.text;
      current.transcript += item.text;
      current.thinking.push(...item.thinking);
    } else if (item.toolCallId && opts.tools) {
      current.toolCells.push(item);
    } else {
      current.fencedCells.push(item);
      current.transcript = joinBlock(current.transcript, item.callDialect ? dialectCall(item.callDialect, item) : fencedBlock(item));
    }
  }
  // A step that produced nothing (a reply cut off before its first token) is not a message.
  return out.filter(
    (e) => e.kind === 'user' || e.text !== '' || e.thinking.length > 0 || e.toolCells.length > 0 || e.fencedCells.length > 0,
  );
}

/** What the model is told about a run: its trimmed result, or why there is none. */
export function cellResultText(cell: CellItem): string {
  if (cell.resultForModel !== null) return cell.resultForModel;
  switch (cell.status) {
    case 'skipped':
      return 'The user declined to run this code.';
    case 'streaming':
    case 'awaiting-approval':
    case 'running':
      return 'The run was cancelled before it finished.';
    default:
      return `The run ended with status ${cell.status} and produced no output.`;
  }
}

/** The user message that answers a step's fenced code blocks. */
export function fencedResultsText(cells: CellItem[]): string {
  return cells
    .map((cell) =>
      cell.callDialect
        ? writeResult(cell.callDialect, toolCallOf(cell).name, cellResultText(cell))
        : `Output of the ${cell.language || 'code'} block:\n${cellResultText(cell)}`,
    )
    .join('\n\n');
}

/** A call the model wrote as text, written back the way it wrote it (its dialect). */
function dialectCall(dialect: TextCallDialect, cell: CellItem): string {
  const call = toolCallOf(cell);
  return writeCall(dialect, { name: call.name, args: JSON.stringify(call.input) });
}

function fencedBlock(cell: CellItem): string {
  // A fence longer than any backtick run inside the code keeps the block closed where it should be.
  const longest = Math.max(2, ...[...cell.code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${cell.language}\n${cell.code.replace(/\n$/, '')}\n${fence}`;
}

function joinBlock(text: string, block: string): string {
  if (text === '') return block;
  return text.endsWith('\n\n') ? text + block : text.endsWith('\n') ? `${text}\n${block}` : `${text}\n\n${block}`;
}
