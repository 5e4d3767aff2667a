import type { CellItem, Conversation, ConversationItem } from '@contract';
import { APP_KEY } from './app-metadata';
import { splitLines } from './multiline';
import { DELEGATE_LANGUAGE } from '../llm/delegate-tool';
import type { MarkdownCellV4 } from './nbformat-schema';

// A sub-agent's cells in its parent's notebook (docs/notebooks.md, docs/agent.md#sub-agents): right
// after the parent's `delegate` call, a markdown heading naming the sub-agent, then its own
// conversation's items exported as any conversation's are, so "Run all" re-runs its code in the order
// the parent saw its result. The heading is not a conversation item: import leaves it out (role
// `subagent`), and the cells under it come back as the imported conversation's own.

const STATE: Record<NonNullable<CellItem['subagent']>['status'], string> = {
  waiting: 'never started',
  running: 'still running when exported',
  done: 'finished',
  failed: 'failed',
  stopped: 'stopped by the person',
  budget: 'stopped: budget spent',
};

/** The sub-agent conversation a delegate cell started, when the exporter was given it. */
export function subagentOf(item: ConversationItem, subagents: ReadonlyMap<string, Conversation> | undefined): Conversation | null {
  if (item.kind !== 'cell' || item.language !== DELEGATE_LANGUAGE || !item.subagent || !subagents) return null;
  return subagents.get(item.subagent.conversationId) ?? null;
}

export function subagentHeading(cell: CellItem, sub: Conversation): Omit<MarkdownCellV4, 'id'> {
  const info = cell.subagent;
  const name = info?.name ?? sub.parent?.name ?? sub.title;
  const cells = sub.items.filter((i) => i.kind === 'cell').length;
  const text = [
    `### Sub-agent “${name.replace(/[\\`*_[\]<>#]/g, (c) => `\\${c}`)}” — ${info ? STATE[info.status] : 'finished'}`,
    '',
    `Its own conversation (${sub.id}), ${cells} cell${cells === 1 ? '' : 's'}${info ? ` on ${info.model}` : ''}. ` +
      'Its cells follow, to run in this notebook in order; it had sessions of its own, so here its variables share the notebook’s kernel.',
  ].join('\n');
  return {
    cell_type: 'markdown',
    metadata: { [APP_KEY]: { role: 'subagent', conversationId: sub.id, name } },
    source: splitLines(text),
  };
}

/**
 * The sub-agent conversations a conversation's delegate cells started, read with `load` (the
 * conversation store); one that cannot be read (deleted) is left out and its call stays a raw cell.
 */
export async function loadSubagents(conv: Conversation, load: (id: string) => Promise<Conversation>): Promise<Map<string, Conversation>> {
  const found = new Map<string, Conversation>();
  for (const item of conv.items) {
    if (item.kind !== 'cell' || item.language !== DELEGATE_LANGUAGE || !item.subagent) continue;
    const id = item.subagent.conversationId;
    const sub = await load(id).catch(() => null);
    if (sub) found.set(id, sub);
  }
  return found;
}
