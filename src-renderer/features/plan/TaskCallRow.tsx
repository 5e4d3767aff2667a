import type { CellItem } from '@contract';

/**
 * A call of the task tool in the conversation: one muted line (the list itself is pinned above), or
 * the reason when the call was refused (the model read the same).
 */
export function TaskCallRow({ cell }: { cell: CellItem }) {
  let what = 'updated the task list';
  try {
    const args = JSON.parse(cell.code) as { action?: unknown; steps?: unknown; ids?: unknown };
    if (args.action === 'add' && Array.isArray(args.steps)) what = `added ${args.steps.length} step${args.steps.length === 1 ? '' : 's'}`;
    else if (typeof args.action === 'string' && Array.isArray(args.ids)) what = `${args.action} ${args.ids.join(', ')}`;
  } catch {
    // Still streaming: the generic words.
  }
  const failed = cell.status === 'failed';
  return (
    <div className={`notice notice-${failed ? 'warning' : 'info'} task-call`} role="note" data-testid="task-call">
      <span>
        Tasks: {what}
        {failed && cell.resultForModel ? ` — ${cell.resultForModel.replace(/^Error: /, '')}` : ''}
      </span>
    </div>
  );
}
