import { useEffect, useRef, useState } from 'react';
import { useApp } from '../../state/app-store';
import { Icon } from '../common/Icon';
import { exportNotebook, importNotebookFiles, startRerun } from './notebook-actions';
import { rerunnableCount, useNotebooks } from './notebook-store';
import './notebooks.css';

/** The top bar's "Notebook" menu: import an .ipynb, export the conversation as one, re-run its cells. */
export function NotebookMenu() {
  // The id and a count, not the conversation: the conversation changes with every streamed token.
  const conversationId = useApp((s) => s.current?.conv.id ?? null);
  const rerunnable = useApp((s) => (s.current ? rerunnableCount(s.current.conv.items) : 0));
  const busy = useNotebooks((s) => s.busy);
  const rerun = useNotebooks((s) => (conversationId ? s.reruns[conversationId] : undefined));
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (e: Event) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  const rerunning = rerun?.phase === 'running' || rerun?.phase === 'starting';
  // Each entry closes the menu first, then acts (inside the click, so the file chooser may open).
  const pickFile = () => {
    setOpen(false);
    input.current?.click();
  };
  const exportIt = () => {
    setOpen(false);
    if (conversationId) void exportNotebook(conversationId);
  };
  const rerunAll = () => {
    setOpen(false);
    if (conversationId) void startRerun(conversationId);
  };

  return (
    <div className="nb-menu" ref={root}>
      {/* Icon-only while idle: the top bar is narrow when the files panel is open. */}
      <button
        className="icon-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label="Notebook"
        title="Jupyter notebooks: import, export, re-run"
        onClick={() => setOpen(!open)}
        disabled={busy !== null}
      >
        <Icon name="notebook" size={18} />
        {busy && <span className="small">{busy}</span>}
      </button>
      {open && (
        <div className="nb-menu-list" role="menu" aria-label="Notebook">
          <button role="menuitem" onClick={pickFile}>
            Import notebook…
          </button>
          <button
            role="menuitem"
            disabled={!conversationId}
            onClick={exportIt}
            title={conversationId ? 'Download this conversation as an .ipynb' : 'Open a conversation first'}
          >
            Export as notebook…
          </button>
          <button
            role="menuitem"
            disabled={!conversationId || rerunnable === 0 || rerunning}
            onClick={rerunAll}
            title="Run every code cell again, in order, to restore the notebook’s variables and files"
          >
            Re-run all cells{rerunnable > 0 ? ` (${rerunnable})` : ''}
          </button>
        </div>
      )}
      <input
        ref={input}
        type="file"
        accept=".ipynb,application/x-ipynb+json"
        multiple
        hidden
        data-testid="notebook-file-input"
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          void importNotebookFiles(files);
        }}
      />
    </div>
  );
}
