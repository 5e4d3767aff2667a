import { taskLines, type Task } from '@contract';
import { parseMcpArgs } from '../mcp-cell';
import { MAX_STEP_CHARS, MAX_STEPS } from '../../llm/plan-tools';

// The live task list (docs/agent.md#task-list): the model's update_tasks calls applied to the list
// the conversation keeps. A call is all or nothing: one bad number or step refuses the whole call,
// with an error naming it, and the list stays as it was.

/** Steps a list holds at most (the contract's cap), counting done and dropped ones. */
export const MAX_TASKS = 100;

export type TaskUpdate = { ok: true; tasks: Task[]; forModel: string } | { ok: false; forModel: string };

const STATE_OF = { start: 'active', done: 'done', drop: 'dropped' } as const;

export function applyTaskCall(current: readonly Task[], argsJson: string): TaskUpdate {
  const args = parseMcpArgs(argsJson);
  if (!args.ok) return refuse(args.error);
  const { action, steps, ids } = args.value;
  if (action === 'add') {
    const titles = checkSteps(steps);
    if (typeof titles === 'string') return refuse(titles);
    return addSteps(current, titles);
  }
  if (action === 'start' || action === 'done' || action === 'drop') {
    if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => Number.isInteger(id)))
      return refuse(`"${action}" needs "ids": the numbers of the steps, e.g. [1]`);
    const unknown = (ids as number[]).filter((id) => !current.some((t) => t.id === id));
    if (unknown.length > 0)
      return refuse(`there is no step ${unknown.join(', ')}; the steps are ${current.map((t) => t.id).join(', ') || 'none yet'}`);
    const state = STATE_OF[action];
    const tasks = current.map((t) => ((ids as number[]).includes(t.id) ? { ...t, state } : t));
    return done(tasks);
  }
  return refuse('"action" must be "add", "start", "done" or "drop"');
}

/** New steps appended, numbered after the last (numbers are never reused, so the model's references stay true). */
export function addSteps(current: readonly Task[], titles: readonly string[]): TaskUpdate {
  if (current.length + titles.length > MAX_TASKS) return refuse(`the list holds at most ${MAX_TASKS} steps`);
  let next = current.reduce((max, t) => Math.max(max, t.id), 0);
  return done([...current, ...titles.map((title) => ({ id: ++next, title, state: 'pending' as const }))]);
}

/** The steps of a call (add, or a plan), trimmed; or what is wrong with them. */
export function checkSteps(steps: unknown): string[] | string {
  if (!Array.isArray(steps) || steps.length === 0) return '"steps" must be a list of at least one step';
  if (steps.length > MAX_STEPS) return `at most ${MAX_STEPS} steps at a time`;
  const titles: string[] = [];
  for (const [i, step] of steps.entries()) {
    if (typeof step !== 'string' || step.trim() === '') return `step ${i + 1} is empty or not text`;
    const title = step.replace(/\s+/g, ' ').trim();
    if (title.length > MAX_STEP_CHARS) return `step ${i + 1} is longer than ${MAX_STEP_CHARS} characters; keep steps short`;
    titles.push(title);
  }
  return titles;
}

/** The list as the model reads it. */
export function tasksForModel(tasks: readonly Task[]): string {
  return tasks.length === 0
    ? 'The task list is empty.'
    : `Task list ([ ] to do, [>] started, [x] done, [-] dropped):\n${taskLines(tasks).join('\n')}`;
}

const refuse = (why: string): TaskUpdate => ({ ok: false, forModel: `Error: ${why}. The task list was not changed.` });
const done = (tasks: Task[]): TaskUpdate => ({ ok: true, tasks, forModel: tasksForModel(tasks) });
