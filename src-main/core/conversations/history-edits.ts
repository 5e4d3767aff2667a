import type { ConversationItem } from '@contract';

/** Index of the last user message, or -1. */
export function lastUserIndex(items: ConversationItem[]): number {
  for (let i = items.length - 1; i >= 0; i--) if (items[i]?.kind === 'user') return i;
  return -1;
}

/**
 * Removes the last user message and everything after it. Code that already ran is not undone on the
 * machine (files it wrote stay); only the conversation forgets it.
 */
export function withoutLastTurn(items: ConversationItem[]): ConversationItem[] {
  const at = lastUserIndex(items);
  if (at < 0) throw new Error('there is no message to undo in this conversation');
  return items.slice(0, at);
}

/**
 * What Retry (after a failed call) and "new answer" keep: the last user message and everything up to
 * the last cell after it that ran. Code that ran changed the machine: its record (output, checkpoint,
 * rewind link) stays, and the model goes on from it instead of proposing it again. What came after it
 * (prose, notices, code that never ran) is dropped, so the model answers that part anew.
 */
export function withoutLastAnswer(items: ConversationItem[]): ConversationItem[] {
  const at = lastUserIndex(items);
  if (at < 0) throw new Error('there is no message to answer again in this conversation');
  for (let i = items.length - 1; i > at; i--) {
    const item = items[i];
    if (item?.kind === 'cell' && item.startedAt !== null) return items.slice(0, i + 1);
  }
  return items.slice(0, at + 1);
}
