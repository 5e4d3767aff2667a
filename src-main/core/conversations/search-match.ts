import type { Conversation, ConversationListEntry } from '@contract';

type Match = NonNullable<ConversationListEntry['match']>;

/** Characters of context kept before and after the match in an excerpt. */
const BEFORE = 40;
const AFTER = 80;

/**
 * Where a search first matches a conversation: its title, else the first message, code or notice that
 * contains the words, as a short excerpt around them. null when nothing matches. Case-insensitive;
 * runs of whitespace count as one space, in the text and in the query.
 */
export function findMatch(conv: Conversation, query: string): Match | null {
  const needle = squash(query).toLowerCase();
  if (!needle) return null;
  const title = squash(conv.title);
  const inTitle = title.toLowerCase().indexOf(needle);
  if (inTitle >= 0) return { text: title, start: inTitle, length: needle.length };
  for (const item of conv.items) {
    const text = squash(item.kind === 'cell' ? item.code : item.text);
    const at = text.toLowerCase().indexOf(needle);
    if (at >= 0) return excerpt(text, at, needle.length);
  }
  return null;
}

function excerpt(text: string, at: number, length: number): Match {
  let from = Math.max(0, at - BEFORE);
  // Start at a word, not in the middle of one.
  if (from > 0) {
    const space = text.indexOf(' ', from);
    if (space >= 0 && space < at) from = space + 1;
  }
  const to = Math.min(text.length, at + length + AFTER);
  const head = from > 0 ? '…' : '';
  const tail = to < text.length ? '…' : '';
  return { text: `${head}${text.slice(from, to)}${tail}`, start: head.length + at - from, length };
}

function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
