import type { AssistantItem, CellItem, ConversationItem, UserItem } from '@contract';

/** The conversation as the model sees it: user turns, and model steps with their runs' results. */
export type HistoryEntry =
  | { kind: 'user'; item: UserItem }
  | { kind: 'step'; text: string; thinking: AssistantItem['thinking']; toolCells: CellItem[]; fencedCells: CellItem[] };

/**
 * Groups items by model step so adapters can rebuild "assistant message with tool calls, then one
 * result per call" — the shape both OpenAI and Anthropic require. Notices are the app's, not the model's.
 */
export function toHistory(items: ConversationItem[]): HistoryEntry[] {
  const out: HistoryEntry[] = [];
  let current: Extract<HistoryEntry, { kind: 'step' }> | null = null;
  let currentStep: string | null = null;
  for (const item of items) {
    if (item.kind === 'notice') continue;
    if (item.kind === 'user') {
      current = null;
      currentStep = null;
      out.push({ kind: 'user', item });
      continue;
    }
    if (!current || currentStep !== item.step) {
      current = { kind: 'step', text: '', thinking: [], toolCells: [], fencedCells: [] };
      currentStep = item.step;
      out.push(current);
    }
    if (item.kind === 'assistant') {
      current.text += item.text;
      current.thinking.push(...item.thinking);
    } else if (item.toolCallId) {
      current.toolCells.push(item);
    } else {
      current.fencedCells.push(item);
    }
  }
  return out;
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
