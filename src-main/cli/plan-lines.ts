import { planSteps, taskLines, taskProgress, TASKS_LANGUAGE, PLAN_LANGUAGE, type CellItem, type Task } from '@contract';
import type { Style } from './terminal-style';

// What `oi` prints of plan mode and the task list (docs/cli.md#plan-mode): a proposed plan as a
// numbered list before the question, the task list compactly each time it changes, and one line when
// plan mode turns on or off. The calls themselves (their JSON) are not printed as code.

/** Whether a cell is a plan proposal or a task-list call (not code to show). */
export function isPlanCell(language: string): boolean {
  return language === PLAN_LANGUAGE || language === TASKS_LANGUAGE;
}

export function planLines(cell: Pick<CellItem, 'code'>, style: Style): string {
  const steps = planSteps(cell.code);
  return [style.bold('── proposed plan ──'), ...steps.map((s, i) => `  ${i + 1}. ${s}`)].join('\n');
}

/** The list on a few lines: a heading with the progress, then one line a step. */
export function taskListLines(tasks: readonly Task[], style: Style): string {
  if (tasks.length === 0) return style.dim('Tasks: (none)');
  const paint = (task: Task, line: string) =>
    task.state === 'done'
      ? style.green(line)
      : task.state === 'active'
        ? style.bold(line)
        : task.state === 'dropped'
          ? style.dim(line)
          : line;
  const lines = taskLines(tasks);
  return [style.dim(`Tasks — ${taskProgress(tasks)}`), ...tasks.map((t, i) => `  ${paint(t, lines[i] ?? '')}`)].join('\n');
}

/** The line for a finished plan or task cell, or null when the list itself says it (a task call that worked). */
export function planCellDone(cell: CellItem, style: Style): string | null {
  if (cell.language === TASKS_LANGUAGE)
    return cell.status === 'done' ? null : style.yellow(`[tasks] ${cell.resultForModel ?? cell.status}`);
  if (cell.status === 'done') return style.green('✓ plan approved');
  if (cell.status === 'skipped')
    return style.yellow(`↷ plan not approved${cell.approval === 'declined' ? '' : ` (${cell.resultForModel ?? ''})`}`);
  return style.yellow(`[plan] ${cell.resultForModel ?? cell.status}`);
}

export function planModeLine(planMode: boolean, style: Style): string {
  return style.dim(
    planMode
      ? '(plan mode on: code runs read-only in the sandbox until you approve a plan; /plan turns it off)'
      : '(plan mode off: code runs as usual)',
  );
}
