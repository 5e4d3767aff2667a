import type { AnyEvent, AssistantItem, CellItem, Conversation, ConversationItem, EventName } from '@contract';
import { itemsWithDisplayUpdate } from '@contract/display-updates';

/** The events applyEvent folds into the open conversation (event-wiring.ts subscribes to these). */
export const FOLDED_EVENTS = [
  'item.added',
  'assistant.delta',
  'assistant.thinking-delta',
  'assistant.done',
  'cell.code',
  'cell.awaiting-approval',
  'conversation.auto-run',
  'conversation.changed',
  'conversation.plan-mode',
  'conversation.computer-use',
  'tasks.updated',
  'subagent.updated',
  'cell.running',
  'cell.output',
  'cell.display-updated',
  'cell.done',
  'turn.start',
  'turn.end',
  'notice',
  'usage.updated',
] as const satisfies readonly EventName[];

type TurnEndReason = Extract<AnyEvent, { name: 'turn.end' }>['payload']['reason'];

/** What the chat shows for one open conversation. Terminal bytes are not here: see terminal-feeds.ts. */
export interface ConversationView {
  conv: Conversation;
  busy: boolean;
  /** When the running turn started (ms since epoch), for the elapsed-time indicator. */
  turnStartedAt: number | null;
  /** Why the last turn ended, so a failed model call can offer a retry. */
  lastEnd: TurnEndReason | null;
  /** How full the model's context window was at the last call. */
  context: { tokens: number; window: number } | null;
}

export function viewOf(conv: Conversation): ConversationView {
  const working = conv.items.some(
    (i) => i.kind === 'cell' && (i.status === 'running' || i.status === 'awaiting-approval' || i.status === 'streaming'),
  );
  return { conv, busy: working, turnStartedAt: working ? Date.now() : null, lastEnd: null, context: null };
}

/**
 * Applies one agent event to the view. Pure: it returns a new view (or the same one when the event is
 * not about this conversation or changes nothing), so React re-renders by identity and only the items
 * that changed get new objects.
 */
export function applyEvent(view: ConversationView, event: AnyEvent, now: number = Date.now()): ConversationView {
  const p = event.payload as { conversationId?: string | null };
  if (p.conversationId !== view.conv.id) return view;
  switch (event.name) {
    case 'item.added':
    case 'notice':
      if (view.conv.items.some((i) => i.id === event.payload.item.id)) return view;
      return withItems(view, [...view.conv.items, event.payload.item]);
    case 'assistant.delta':
      return mapItem(view, event.payload.itemId, (item) =>
        item.kind === 'assistant' ? { ...item, text: item.text + event.payload.text } : item,
      );
    case 'assistant.thinking-delta': {
      const { itemId, block, text } = event.payload;
      return mapItem(view, itemId, (item) =>
        item.kind === 'assistant' ? { ...item, thinking: withThinkingText(item.thinking, block, text) } : item,
      );
    }
    case 'assistant.done':
      return mapItem(view, event.payload.item.id, () => event.payload.item);
    case 'cell.code':
      return mapCell(view, event.payload.cellId, (c) =>
        c.code === event.payload.code && c.language === event.payload.language
          ? c
          : { ...c, code: event.payload.code, language: event.payload.language },
      );
    case 'cell.awaiting-approval':
      return mapItem(view, event.payload.cell.id, () => event.payload.cell);
    case 'cell.running': {
      const { cellId, code, startedAt, limits, executionCount } = event.payload;
      return mapCell(view, cellId, (c) => ({
        ...c,
        status: 'running',
        code,
        startedAt,
        limits,
        executionCount,
        outputs: [],
        exitCode: null,
        durationMs: null,
      }));
    }
    case 'cell.output':
      return mapCell(view, event.payload.cellId, (c) => ({ ...c, outputs: [...c.outputs, event.payload.output] }));
    case 'cell.display-updated': {
      const items = itemsWithDisplayUpdate(view.conv.items, event.payload.update);
      return items.every((item, i) => item === view.conv.items[i]) ? view : { ...view, conv: { ...view.conv, items } };
    }
    case 'cell.done':
      return mapItem(view, event.payload.cell.id, () => event.payload.cell);
    case 'turn.start':
      return { ...view, busy: true, turnStartedAt: now, lastEnd: null };
    case 'turn.end':
      return {
        ...view,
        busy: false,
        turnStartedAt: null,
        lastEnd: event.payload.reason,
        conv: { ...view.conv, usage: event.payload.usage },
      };
    case 'usage.updated':
      return {
        ...view,
        conv: { ...view.conv, usage: event.payload.usage },
        context: { tokens: event.payload.contextTokens, window: event.payload.contextWindow },
      };
    case 'conversation.changed':
      return { ...view, conv: { ...view.conv, ...event.payload.change } };
    case 'conversation.plan-mode':
      return { ...view, conv: { ...view.conv, planMode: event.payload.planMode } };
    case 'conversation.computer-use':
      return { ...view, conv: { ...view.conv, computerUse: event.payload.on } };
    case 'subagent.updated':
      return mapCell(view, event.payload.cellId, (c) => ({ ...c, subagent: event.payload.subagent }));
    case 'tasks.updated':
      return { ...view, conv: { ...view.conv, tasks: event.payload.tasks } };
    case 'conversation.auto-run':
      return view.conv.autoRun === event.payload.autoRun ? view : { ...view, conv: { ...view.conv, autoRun: event.payload.autoRun } };
    default:
      return view;
  }
}

/** The cell waiting for the user's decision, if any (Ctrl/Cmd+Enter approves it). */
export function pendingCell(view: ConversationView | null): CellItem | null {
  if (!view) return null;
  for (const item of view.conv.items) if (item.kind === 'cell' && item.status === 'awaiting-approval') return item;
  return null;
}

/** What the agent is doing now, for the working indicator. */
export type Activity =
  | { kind: 'idle' }
  | { kind: 'model'; since: number }
  | { kind: 'approval'; cell: CellItem }
  | { kind: 'running'; cell: CellItem; since: number };

export function activityOf(view: ConversationView | null): Activity {
  if (!view) return { kind: 'idle' };
  for (let i = view.conv.items.length - 1; i >= 0; i--) {
    const item = view.conv.items[i];
    if (item?.kind !== 'cell') continue;
    if (item.status === 'running') return { kind: 'running', cell: item, since: item.startedAt ? Date.parse(item.startedAt) : Date.now() };
    if (item.status === 'awaiting-approval') return { kind: 'approval', cell: item };
  }
  return view.busy ? { kind: 'model', since: view.turnStartedAt ?? Date.now() } : { kind: 'idle' };
}

/** The blocks with `text` appended to block `block` (created, unsigned, when it is new). */
function withThinkingText(blocks: AssistantItem['thinking'], block: number, text: string): AssistantItem['thinking'] {
  const next = blocks.slice();
  while (next.length <= block) next.push({ thinking: '', signature: '' });
  const current = next[block] ?? { thinking: '', signature: '' };
  next[block] = { ...current, thinking: current.thinking + text };
  return next;
}

function withItems(view: ConversationView, items: ConversationItem[]): ConversationView {
  return { ...view, conv: { ...view.conv, items } };
}

function mapItem(view: ConversationView, id: string, f: (item: ConversationItem) => ConversationItem): ConversationView {
  const index = view.conv.items.findIndex((item) => item.id === id);
  if (index < 0) return view;
  const current = view.conv.items[index] as ConversationItem;
  const next = f(current);
  if (next === current) return view;
  const items = view.conv.items.slice();
  items[index] = next;
  return withItems(view, items);
}

function mapCell(view: ConversationView, id: string, f: (cell: CellItem) => CellItem): ConversationView {
  return mapItem(view, id, (item) => (item.kind === 'cell' ? f(item) : item));
}
