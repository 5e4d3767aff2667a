import { useEffect } from 'react';
import { attachFiles } from '../common/upload';
import { useApp } from '../../state/app-store';
import { Icon } from '../common/Icon';
import { importNotebookFiles, startRerun, stopRerun, wireNotebookEvents } from './notebook-actions';
import { useNotebooks, type RerunView } from './notebook-store';
import './notebooks.css';

/**
 * The strip under the top bar for notebook work in progress: dropped .ipynb files waiting for "import
 * or attach", the last import's warnings, and re-running the cells ("cell k of n", stop, continue).
 */
export function NotebookBar() {
  const conversationId = useApp((s) => s.current?.conv.id ?? null);
  const rerun = useNotebooks((s) => (conversationId ? s.reruns[conversationId] : undefined));
  const dropped = useNotebooks((s) => s.dropped);
  const warnings = useNotebooks((s) => s.warnings);

  useEffect(() => wireNotebookEvents(), []);

  return (
    <>
      {dropped.length > 0 && <DroppedOffer files={dropped} />}
      {warnings && warnings.conversationId === conversationId && (
        <div className="banner banner-notice nb-bar" role="status" data-testid="notebook-warnings">
          <div>
            <strong>{warnings.fileName}</strong> was imported with{' '}
            {warnings.warnings.length === 1 ? 'one change' : `${warnings.warnings.length} changes`}:
            <ul className="nb-warnings">
              {warnings.warnings.map((w, i) => (
                <li key={i}>{w}</li>
              ))}
            </ul>
          </div>
          <button
            className="icon-button"
            aria-label="Dismiss the import warnings"
            onClick={() => useNotebooks.getState().setWarnings(null)}
          >
            <Icon name="close" size={14} />
          </button>
        </div>
      )}
      {conversationId && rerun && <RerunStrip conversationId={conversationId} view={rerun} />}
    </>
  );
}

function DroppedOffer({ files }: { files: File[] }) {
  const { clearDropped } = useNotebooks.getState();
  const names = files.map((f) => f.name).join(', ');
  return (
    <div className="banner nb-bar" role="group" aria-label="Dropped notebooks" data-testid="notebook-drop-offer">
      <span>
        Import <strong>{names}</strong> as {files.length === 1 ? 'a new conversation' : 'new conversations'}?
      </span>
      <span className="row">
        <button
          className="primary small"
          onClick={() => {
            clearDropped();
            void importNotebookFiles(files);
          }}
        >
          Import
        </button>
        <button
          className="small"
          title="Copy into this conversation’s attachments/ folder instead"
          onClick={() => {
            clearDropped();
            void attachFiles(files);
          }}
        >
          Attach instead
        </button>
        <button className="small ghost" onClick={clearDropped}>
          Cancel
        </button>
      </span>
    </div>
  );
}

function RerunStrip({ conversationId, view }: { conversationId: string; view: RerunView }) {
  const dismiss = () => useNotebooks.getState().setRerun(conversationId, null);
  return (
    <div className="banner nb-bar nb-rerun" role="status" aria-live="polite" data-testid="rerun-bar" data-phase={view.phase}>
      <span data-testid="rerun-status">{describe(view)}</span>
      {view.phase === 'running' && (
        <progress
          className="nb-progress"
          max={view.n}
          value={view.cellStatus === 'running' ? view.k - 1 : view.k}
          aria-label="Cells re-run"
        />
      )}
      <span className="row">
        {view.phase === 'offer' && (
          <>
            <button className="primary small" onClick={() => void startRerun(conversationId)}>
              Re-run all cells
            </button>
            <button className="small ghost" onClick={dismiss}>
              Not now
            </button>
          </>
        )}
        {(view.phase === 'running' || view.phase === 'starting') && (
          <button className="small danger" onClick={() => void stopRerun(conversationId)}>
            Stop
          </button>
        )}
        {view.phase === 'ended' && (
          <>
            {view.nextIndex !== null && view.outcome !== 'failed' && (
              <button className="primary small" onClick={() => void startRerun(conversationId, view.nextIndex ?? 0)}>
                Continue from cell {view.nextIndex + 1}
              </button>
            )}
            <button className="small" onClick={() => void startRerun(conversationId)}>
              Re-run all again
            </button>
            <button className="icon-button" aria-label="Dismiss" onClick={dismiss}>
              <Icon name="close" size={14} />
            </button>
          </>
        )}
      </span>
    </div>
  );
}

function describe(view: RerunView): string {
  switch (view.phase) {
    case 'offer':
      return `This notebook’s outputs are from its last run; its variables and files do not exist here yet. Re-run all ${view.n} code cells to restore them?`;
    case 'starting':
      return view.n === null ? 'Starting the re-run…' : `Starting the re-run at cell ${view.startAt + 1} of ${view.n}…`;
    case 'running':
      return view.cellStatus === 'running' ? `Re-running cell ${view.k} of ${view.n}…` : `Cell ${view.k} of ${view.n}: ${view.cellStatus}`;
    case 'ended':
      if (view.outcome === 'completed') return `Re-run finished: cell ${view.n} of ${view.n} ran.`;
      if (view.outcome === 'failed') return `The re-run failed: ${view.message ?? 'unknown error'}`;
      if (view.outcome === 'cancelled')
        return `Stopped by you${view.nextIndex !== null ? ` before cell ${view.nextIndex + 1} of ${view.n}` : ''}.`;
      return view.stoppedAt
        ? `Stopped at cell ${view.stoppedAt.k} of ${view.n}: it ended “${view.stoppedAt.status}”. Fix it, or continue with the next cell.`
        : 'Stopped.';
  }
}
