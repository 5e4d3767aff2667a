import type { Conversation, ConversationItem } from '@contract';
import type { Style } from './terminal-style';

const SHOWN_CHARS = 600;

/**
 * What a resumed conversation shows before the prompt: where it is, its last exchange (so the person
 * knows where they left off) and whether it runs code without asking.
 */
export function resumeSummary(conv: Conversation, style: Style): string[] {
  const lines = [style.dim(`Continuing "${conv.title}" (${conv.id}, ${conv.items.length} items)`)];
  const lastUser = findLast(conv.items, (i) => i.kind === 'user');
  if (lastUser?.kind === 'user') {
    lines.push(`${style.bold('>')} ${clip(lastUser.text)}`);
    const after = conv.items.slice(conv.items.indexOf(lastUser) + 1);
    const answer = findLast(after, (i) => i.kind === 'assistant' && i.text.trim() !== '');
    const cells = after.filter((i) => i.kind === 'cell').length;
    if (cells > 0) lines.push(style.dim(`(${cells} code cell${cells === 1 ? '' : 's'} ran)`));
    if (answer?.kind === 'assistant') lines.push(clip(answer.text));
  }
  if (conv.autoRun) lines.push(style.yellow('This conversation runs code without asking ("always in this conversation" was chosen).'));
  return lines;
}

function clip(text: string): string {
  const t = text.trim();
  return t.length > SHOWN_CHARS ? `${t.slice(0, SHOWN_CHARS)}…` : t;
}

function findLast(items: ConversationItem[], test: (item: ConversationItem) => boolean): ConversationItem | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i] as ConversationItem)) return items[i];
  return undefined;
}
