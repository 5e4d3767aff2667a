import { QuestionDialog } from '../common/QuestionDialog';
import { useAutoRunConfirm } from '../../state/auto-run-confirm';
import { useSandboxStatus } from './use-sandbox-status';
import './sandbox.css';

const TITLE = {
  everywhere: 'Run code without asking, in every conversation?',
  conversation: 'Run code without asking in this conversation?',
};
const LEAD = {
  everywhere: 'The model’s code will run as soon as it is written, in every conversation, with no approval card.',
  conversation: 'This cell and every later cell of this conversation will run as soon as the model writes them.',
};

/**
 * The confirmation before code runs without asking: it names the sandbox state (from main, the same
 * words as the sandbox chip) and what the code can reach. "Keep asking" has the focus; Esc or a click
 * outside keeps asking too.
 */
export function AutoRunConfirm() {
  const asking = useAutoRunConfirm((s) => s.asking);
  const answer = useAutoRunConfirm((s) => s.answer);
  const status = useSandboxStatus();
  if (!asking) return null;
  const unsandboxed = status !== null && !status.enabled;
  return (
    <QuestionDialog
      title={TITLE[asking]}
      titleId="auto-run-title"
      testId="auto-run-confirm"
      className="auto-run-confirm"
      role="alertdialog"
      describedBy="auto-run-warning"
      no="Keep asking"
      yes="Run without asking"
      yesDisabled={!status}
      focusKey={asking}
      onAnswer={answer}
    >
      <p>{LEAD[asking]}</p>
      <p id="auto-run-warning" className={`auto-run-warning${unsandboxed ? ' unsandboxed' : ''}`} data-testid="auto-run-warning">
        {status ? status.autoRunWarning : 'Checking the sandbox…'}
      </p>
      {status && status.notProtected.length > 0 && (
        <>
          <h2>{unsandboxed ? 'The code can reach' : 'Not protected'}</h2>
          <ul data-testid="auto-run-not-protected">
            {status.notProtected.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </>
      )}
      <p className="muted small">You can go back at any time: the chip above the message box turns it off.</p>
    </QuestionDialog>
  );
}
