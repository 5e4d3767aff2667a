import type { SandboxStatus } from '@contract';
import { useApp } from '../../state/app-store';
import { useSandboxStatus } from './use-sandbox-status';
import './sandbox.css';

/**
 * Above the message box while this conversation's code runs without asking (Auto-run in Settings, or
 * "Always run here"), with the sandbox state; one click makes it ask again.
 */
export function AutoRunChip() {
  const everywhere = useApp((s) => s.settings?.autoRun ?? false);
  const here = useApp((s) => s.current?.conv.autoRun ?? false);
  const updateSettings = useApp((s) => s.updateSettings);
  const setConversationAutoRun = useApp((s) => s.setConversationAutoRun);
  const status = useSandboxStatus();
  if (!everywhere && !here) return null;
  const why = everywhere ? 'Auto-run is on' : '“Always run here” is on';
  const askAgain = async () => {
    if (here) await setConversationAutoRun(false);
    if (everywhere) await updateSettings({ autoRun: false });
  };
  return (
    <div className="auto-run-chip" role="status" data-testid="auto-run-chip" title={status?.autoRunWarning}>
      <span className="auto-run-state">
        <strong>Code runs without asking</strong> · {why} · {sandboxWords(status)}
      </span>
      <button
        className="small"
        onClick={() => void askAgain()}
        title={everywhere ? 'Turns Auto-run off (in every conversation)' : 'Ask before running code in this conversation again'}
      >
        Ask before running
      </button>
    </div>
  );
}

function sandboxWords(status: SandboxStatus | null): string {
  if (!status) return '…';
  if (!status.enabled) return 'no sandbox: as you, with your files';
  return status.available ? 'in the sandbox' : 'sandbox unavailable: nothing runs';
}
