import type { CellItem } from '@contract';
import { useApp } from '../../state/app-store';
import { useInputQuestions } from '../../state/input-questions';
import { useInstallQuestions } from '../../state/install-questions';
import { useNetworkQuestions } from '../../state/network-questions';
import { useNotRerun } from '../../state/not-rerun';
import { CopyButton } from '../common/CopyButton';
import { formatDuration, useNow } from '../common/use-now';

const STATUS_TEXT: Record<CellItem['status'], string> = {
  streaming: 'writing…',
  'awaiting-approval': 'waiting for your approval',
  running: 'running',
  done: 'done',
  failed: 'failed',
  timeout: 'timed out',
  interrupted: 'interrupted',
  died: 'session died',
  skipped: 'skipped',
  unavailable: 'runtime not installed',
};

/**
 * The shell that ran the cell when its language does not say it: "shell · zsh", "zsh · bash" (zsh
 * was missing). A bash or sh cell ran in bash, which goes without saying.
 */
function shellShown(cell: CellItem): string | null {
  const language = cell.language.trim().toLowerCase();
  if (!cell.shell || language === cell.shell) return null;
  if (cell.shell === 'bash' && language === 'sh') return null;
  return cell.shell;
}

export function CellHeader({ cell }: { cell: CellItem }) {
  const interrupt = useApp((s) => s.interrupt);
  const running = cell.status === 'running';
  // A run waiting on the person is not "running · 29 s": its clock is stopped and it is their turn.
  const waitingInput = useInputQuestions((s) => !!s.byCell[cell.id]);
  const waitingInstall = useInstallQuestions((s) => !!s.byCell[cell.id]);
  const waitingNetwork = useNetworkQuestions((s) => !!s.byCell[cell.id]);
  const waiting = running && (waitingInput || waitingInstall || waitingNetwork);
  const now = useNow(running && !waiting);
  const elapsed = running && !waiting && cell.startedAt ? now - Date.parse(cell.startedAt) : null;
  const shell = shellShown(cell);
  // A re-run that stopped before this cell: its status and time are from before, not from this re-run.
  const conversationId = useApp((s) => s.current?.conv.id);
  const notRerun = useNotRerun((s) => (conversationId ? (s.byConversation[conversationId]?.includes(cell.id) ?? false) : false));
  return (
    <header className="cell-head">
      <span className="cell-lang" data-testid="cell-lang">
        {cell.language || '…'}
        {shell && (
          <span className="cell-shell" title="The shell this cell ran in">
            {' '}
            · {shell}
          </span>
        )}
      </span>
      {cell.executionCount !== null && <span className="cell-count">[{cell.executionCount}]</span>}
      {cell.approval === 'auto' && <span className="badge">auto-run</span>}
      {cell.modelCode !== undefined && (
        <span
          className="badge badge-edited"
          data-testid="edited-by-you"
          title="You changed the model's code before it ran; this is the code that ran."
        >
          edited by you
        </span>
      )}
      <span className="cell-status" data-testid="cell-status" role="status">
        {running && !waiting && <span className="spinner" aria-hidden="true" />}
        {notRerun ? (
          <span data-testid="cell-not-rerun" title="The re-run stopped before this cell: what it shows is from before.">
            not re-run
          </span>
        ) : waiting ? (
          waitingInput ? (
            'waiting for input'
          ) : (
            'waiting for you'
          )
        ) : (
          STATUS_TEXT[cell.status]
        )}
        {elapsed !== null && <span data-testid="cell-elapsed"> · {formatDuration(elapsed)}</span>}
      </span>
      {cell.exitCode !== null && !notRerun && (
        <span className={cell.exitCode === 0 ? 'cell-exit' : 'cell-exit bad'}>exit {cell.exitCode}</span>
      )}
      {cell.durationMs !== null && !running && !notRerun && <span className="cell-duration">{formatDuration(cell.durationMs)}</span>}
      <CopyButton text={cell.code} label="Copy code" className="small ghost" />
      {running && (
        <button className="small danger" onClick={() => void interrupt(cell.id)} aria-label="Stop this run">
          Stop
        </button>
      )}
    </header>
  );
}
