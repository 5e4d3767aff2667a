import { isPlanToolCell, skillUseText, taskProgress, type CellItem, type Task } from '@contract';
import { APP_KEY } from './app-metadata';
import { splitLines } from './multiline';
import { DELEGATE_LANGUAGE } from '../llm/delegate-tool';
import { SCHEDULE_LANGUAGE } from '../llm/schedule-tool';
import type { MarkdownCellV4 } from './nbformat-schema';

// The conversation's task list in an exported notebook (docs/notebooks.md, docs/agent.md#task-list):
// one markdown cell at the end, the list as it stood, with GitHub-style checkboxes that Jupyter and
// GitHub render. Not a conversation item: import leaves it out (role `tasks`).

const MARK: Record<Task['state'], string> = { pending: '[ ]', active: '[ ]', done: '[x]', dropped: '[ ]' };
const NOTE: Record<Task['state'], string> = { pending: '', active: ' *(in progress)*', done: '', dropped: ' *(dropped)*' };

export function taskListCell(tasks: readonly Task[]): Omit<MarkdownCellV4, 'id'> | null {
  if (tasks.length === 0) return null;
  const lines = tasks.map((t) => {
    const title = t.state === 'dropped' ? `~~${escapeMarkdown(t.title)}~~` : escapeMarkdown(t.title);
    return `- ${MARK[t.state]} ${t.id}. ${title}${NOTE[t.state]}`;
  });
  const text = [`**Task list** — ${taskProgress(tasks)}`, '', ...lines].join('\n');
  return {
    cell_type: 'markdown',
    metadata: { [APP_KEY]: { role: 'tasks', tasks } },
    source: splitLines(text),
  };
}

/** A step is the model's text: its markdown must not become a link, an image or HTML in the notebook. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+!<>|~]/g, (c) => `\\${c}`);
}

/** A call of a skill, plan, task, delegate or schedule tool: recorded as a cell, but no code of the notebook's. */
export function isToolUseCell(item: CellItem): boolean {
  return skillUseText(item) !== null || isPlanToolCell(item) || item.language === DELEGATE_LANGUAGE || item.language === SCHEDULE_LANGUAGE;
}
