import { useState } from 'react';
import type { Task } from '@contract';
import { taskProgress } from '@contract/plan-text';
import { useApp } from '../../state/app-store';
import './plan.css';

const STATE_WORDS: Record<Task['state'], string> = { pending: 'to do', active: 'in progress', done: 'done', dropped: 'dropped' };
const MARKS: Record<Task['state'], string> = { pending: '○', active: '◐', done: '●', dropped: '–' };

/**
 * The task list pinned above the conversation (docs/ui.md#task-list): each step with its state, updated
 * live as the model works; collapsible to its progress line. Absent until the model adds a step.
 */
export function TaskListPanel() {
  const tasks = useApp((s) => s.current?.conv.tasks);
  const planMode = useApp((s) => s.current?.conv.planMode ?? false);
  const [open, setOpen] = useState(true);
  if (!tasks?.length && !planMode) return null;
  return (
    <div className="task-list" data-testid="task-list" role="region" aria-label="Task list">
      {planMode && (
        <p className="plan-mode-line" data-testid="plan-mode-line">
          <strong>Plan mode</strong> · code runs read-only in the sandbox, without network, until you approve a plan
        </p>
      )}
      {tasks && tasks.length > 0 && (
        <>
          <button className="link task-list-head" aria-expanded={open} onClick={() => setOpen(!open)}>
            Tasks — {taskProgress(tasks)}
          </button>
          {open && (
            <ol className="task-steps">
              {tasks.map((t) => (
                <li key={t.id} className={`task task-${t.state}`} data-state={t.state}>
                  <span className="task-mark" aria-hidden="true">
                    {MARKS[t.state]}
                  </span>
                  <span className="task-title">{t.title}</span>
                  <span className="task-state muted">{STATE_WORDS[t.state]}</span>
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </div>
  );
}
