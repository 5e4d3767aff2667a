import { useApp } from '../../state/app-store';
import { activityOf } from '../../state/conversation-reducer';
import { formatDuration, useNow } from '../common/use-now';
import { isMac } from '../keyboard/platform';

/** What the agent is doing, and for how long: shown above the message box while a turn runs. */
export function WorkingIndicator() {
  const current = useApp((s) => s.current);
  const activity = activityOf(current);
  const now = useNow(activity.kind === 'model' || activity.kind === 'running');
  if (activity.kind === 'idle') return null;
  let text: string;
  switch (activity.kind) {
    case 'model':
      text = `The model is working… ${formatDuration(now - activity.since)}`;
      break;
    case 'running':
      text = `Running ${activity.cell.language}… ${formatDuration(now - activity.since)}`;
      break;
    case 'approval':
      text = `Waiting for your approval — ${isMac() ? '⌘' : 'Ctrl'}+Enter runs, Esc stops`;
      break;
  }
  return (
    <div className="working" role="status" data-testid="working" data-activity={activity.kind}>
      {activity.kind !== 'approval' && <span className="spinner" aria-hidden="true" />}
      {text}
    </div>
  );
}
