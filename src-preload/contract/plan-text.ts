// Zod-free: the renderer, the CLI and notebook export take these values (docs/agent.md#task-list).
// A plan proposal is a cell whose language is PLAN_LANGUAGE and whose code is the call's JSON
// arguments ({"steps": […]}); a task-list call is a cell of TASKS_LANGUAGE.

export const PLAN_LANGUAGE = 'plan:propose';
export const TASKS_LANGUAGE = 'tasks:update';

interface TaskLike {
  id: number;
  title: string;
  state: 'pending' | 'active' | 'done' | 'dropped';
}

const MARKS: Record<TaskLike['state'], string> = { pending: '[ ]', active: '[>]', done: '[x]', dropped: '[-]' };

/** One line per step, `[x] 2. Read the data`: the CLI's compact list and the model's view of it. */
export function taskLines(tasks: readonly TaskLike[]): string[] {
  return tasks.map((t) => `${MARKS[t.state]} ${t.id}. ${t.title}`);
}

/** Steps neither done nor dropped. */
export function openTasks<T extends TaskLike>(tasks: readonly T[]): T[] {
  return tasks.filter((t) => t.state === 'pending' || t.state === 'active');
}

/** "3 of 5 steps done" (dropped steps are not counted as to do). */
export function taskProgress(tasks: readonly TaskLike[]): string {
  const counted = tasks.filter((t) => t.state !== 'dropped');
  const done = counted.filter((t) => t.state === 'done').length;
  return `${done} of ${counted.length} step${counted.length === 1 ? '' : 's'} done`;
}

/** The steps of a plan proposal's arguments (a cell's code), or [] while it streams or is not one. */
export function planSteps(code: string): string[] {
  try {
    const parsed: unknown = JSON.parse(code);
    if (typeof parsed !== 'object' || parsed === null) return [];
    const steps = (parsed as { steps?: unknown }).steps;
    return Array.isArray(steps) ? steps.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

/** The note a turn that ended with steps open leaves (UI and CLI alike). */
export function openStepsNote(open: number): string {
  return `The turn ended with ${open} step${open === 1 ? '' : 's'} of the task list still open.`;
}

/** A plan proposal or a task-list call: recorded as a cell, never code to run or export as code. */
export function isPlanToolCell(cell: { language: string }): boolean {
  return cell.language === PLAN_LANGUAGE || cell.language === TASKS_LANGUAGE;
}
