import { useApp } from '../../state/app-store';
import { activityOf } from '../../state/conversation-reducer';
import { useInputQuestions } from '../../state/input-questions';
import { useInstallQuestions } from '../../state/install-questions';
import { useNetworkQuestions } from '../../state/network-questions';
import { formatDuration, useNow } from '../common/use-now';
import { isMac } from '../keyboard/platform';

/** What the agent is doing, and for how long: shown above the message box while a turn runs. */
export function WorkingIndicator() {
  const current = useApp((s) => s.current);
  const activity = activityOf(current);
  // A run that waits on the person is their turn, not "running · 29 s" (its clock is stopped too).
  const runningId = activity.kind === 'running' ? activity.cell.id : '';
  const input = useInputQuestions((s) => s.byCell[runningId]);
  const install = useInstallQuestions((s) => s.byCell[runningId]);
  const network = useNetworkQuestions((s) => s.byCell[runningId]);
  const waiting = activity.kind === 'running' && (input || install || network);
  const now = useNow((activity.kind === 'model' || activity.kind === 'running') && !waiting);
  if (activity.kind === 'idle') return null;
  let text: string;
  switch (activity.kind) {
    case 'model':
      text = `The model is working… ${formatDuration(now - activity.since)}`;
      break;
    case 'running':
      text = input
        ? `Waiting for you — the ${activity.cell.language} program asks for ${input.password ? 'a password' : 'input'}`
        : install
          ? `Waiting for you — install ${install.packages.join(', ')}?`
          : network
            ? `Waiting for you — let the code reach ${network.host}?`
            : `Running ${activity.cell.language}… ${formatDuration(now - activity.since)}`;
      break;
    case 'approval':
      text = `Waiting for your approval — ${isMac() ? '⌘' : 'Ctrl'}+Enter runs, Esc stops`;
      break;
  }
  return (
    <div className="working" role="status" data-testid="working" data-activity={activity.kind}>
      {activity.kind !== 'approval' && !waiting && <span className="spinner" aria-hidden="true" />}
      {text}
    </div>
  );
}
