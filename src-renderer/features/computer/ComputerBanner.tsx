import { useApp } from '../../state/app-store';
import { useComputer } from '../../state/computer-store';

const PHASE_WORDS = {
  asking: 'waiting for your approval',
  doing: 'doing it now',
  done: 'done',
  declined: 'not done (declined)',
  refused: 'refused',
} as const;

/**
 * While the agent has the screen (computer.control): a banner above the conversation saying so, the
 * action being asked for or done as it happens, and Stop — the turn's stop, which ends an action at once.
 */
export function ComputerBanner() {
  const conversationId = useApp((s) => s.current?.conv.id);
  const control = useComputer((s) => (conversationId ? s.control[conversationId] : undefined));
  const stop = useApp((s) => s.stop);
  if (!control) return null;
  const action = control.action;
  return (
    <div className="computer-banner" role="status" aria-live="polite" data-testid="computer-banner">
      <strong>The agent is controlling your screen.</strong>{' '}
      <span data-testid="computer-banner-action" data-phase={action?.phase ?? ''}>
        {action ? `${action.text} — ${PHASE_WORDS[action.phase]}` : 'Starting…'}
      </span>
      <span className="muted small"> Hold the pointer in a screen corner to stop it, too.</span>
      <button className="danger small" onClick={() => void stop()} aria-label="Stop computer use">
        Stop
      </button>
    </div>
  );
}
