import type { AnyEvent, CellItem, Conversation, ConversationItem } from '@contract';

/** What the chat shows for one open conversation. */
export interface ConversationView {
  conv: Conversation;
  /** Live terminal text per cell, in the chunks it arrived in (xterm writes only the new ones). */
  terminal: Record<string, string[]>;
  busy: boolean;
}

export function viewOf(conv: Conversation): ConversationView {
  return { conv, terminal: {}, busy: false };
}

/**
 * Applies one agent event to the view. Pure: it returns a new view (or the same one when the event
 * is not about this conversation), so it is tested on its own and React re-renders by identity.
 */
export function applyEvent(view: ConversationView, event: AnyEvent): ConversationView {
  const p = event.payload as { conversationId?: string | null };
  if (p.conversationId !== view.conv.id) return view;
  switch (event.name) {
    case 'item.added':
    case 'notice':
      if (view.conv.items.some((i) => i.id === event.payload.item.id)) return view;
      return withItems(view, [...view.conv.items, event.payload.item]);
    case 'assistant.delta':
      return mapItem(view, event.payload.itemId, (item) => (item.kind === 'assistant' ? { ...item, text: item.text + event.payload.text } : item));
    case 'assistant.done':
      return mapItem(view, event.payload.item.id, () => event.payload.item);
    case 'cell.code':
      return mapCell(view, event.payload.cellId, (c) => ({ ...c, code: event.payload.code, language: event.payload.language }));
    case 'cell.awaiting-approval':
      return mapItem(view, event.payload.cell.id, () => event.payload.cell);
    case 'cell.running': {
      const { cellId, code, startedAt, limits, executionCount } = event.payload;
      const next = mapCell(view, cellId, (c) => ({ ...c, status: 'running', code, startedAt, limits, executionCount }));
      return { ...next, terminal: { ...next.terminal, [cellId]: [] } };
    }
    case 'cell.terminal': {
      const { cellId, data } = event.payload;
      return { ...view, terminal: { ...view.terminal, [cellId]: [...(view.terminal[cellId] ?? []), data] } };
    }
    case 'cell.output':
      return mapCell(view, event.payload.cellId, (c) => ({ ...c, outputs: [...c.outputs, event.payload.output] }));
    case 'cell.done':
      return mapItem(view, event.payload.cell.id, () => event.payload.cell);
    case 'turn.start':
      return { ...view, busy: true };
    case 'turn.end':
      return { ...view, busy: false, conv: { ...view.conv, usage: event.payload.usage } };
    default:
      return view;
  }
}

function withItems(view: ConversationView, items: ConversationItem[]): ConversationView {
  return { ...view, conv: { ...view.conv, items } };
}

function mapItem(view: ConversationView, id: string, f: (item: ConversationItem) => ConversationItem): ConversationView {
  let changed = false;
  const items = view.conv.items.map((item) => {
    if (item.id !== id) return item;
    changed = true;
    return f(item);
  });
  return changed ? withItems(view, items) : view;
}

function mapCell(view: ConversationView, id: string, f: (cell: CellItem) => CellItem): ConversationView {
  return mapItem(view, id, (item) => (item.kind === 'cell' ? f(item) : item));
}
