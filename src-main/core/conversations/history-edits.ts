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

/** Keeps the last user message and drops what answered it, so the model can answer again. */
export function withoutLastAnswer(items: ConversationItem[]): ConversationItem[] {
  const at = lastUserIndex(items);
  if (at < 0) throw new Error('there is no message to answer again in this conversation');
  return items.slice(0, at + 1);
}
