import { useApp } from '../../state/app-store';
import { setPlanMode } from './plan-actions';

/**
 * The composer's plan-mode switch (docs/ui.md#plan-mode): on, the model looks around with the workspace
 * read-only and proposes a plan before it changes anything. `/plan` in the message box does the same.
 */
export function PlanSwitch() {
  const on = useApp((s) => s.current?.conv.planMode ?? false);
  return (
    <button
      className={`small plan-switch${on ? ' on' : ''}`}
      role="switch"
      aria-checked={on}
      aria-label="Plan mode"
      data-testid="plan-switch"
      title={
        on
          ? 'Plan mode is on: code runs read-only in the sandbox until you approve a plan. Click (or type /plan) to turn it off.'
          : 'Plan mode: the agent looks first (read-only) and proposes a plan for you to approve. Also /plan.'
      }
      onClick={() => void setPlanMode(!on)}
    >
      Plan{on ? ' · on' : ''}
    </button>
  );
}
