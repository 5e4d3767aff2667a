import { useState } from 'react';
import type { CellItem, FileDiff } from '@contract';
import { plainMessage } from '../../state/plain-error';
import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';
import { useSubagentThreads } from '../../state/subagent-threads';
import { RewindDialog } from './RewindDialog';
import { useRewind } from './use-rewind';
import './checkpoints.css';

type Changes = NonNullable<CellItem['changes']>;

function size(bytes: number | null): string {
  if (bytes === null) return '';
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * What a cell changed in the workspace ("3 files changed"), opening to the list and each file's diff,
 * and the way back: rewind the files to before this cell (docs/checkpoints.md).
 */
export function CellChangesLine({ cell, changes }: { cell: CellItem; changes: Changes }) {
  // A cell in a sub-agent's nested thread is the sub-agent's: its diffs and rewind are asked of that
  // conversation, and after a rewind its thread is read again (the parent stays open).
  const thread = useSubagentThreads((s) => {
    const id = s.conversationOfCell(cell.id);
    return id ? s.views[id] : undefined;
  });
  const reloadThread = useSubagentThreads((s) => s.load);
  const currentId = useApp((s) => s.current?.conv.id);
  const openConversation = useApp((s) => s.openConversation);
  const currentItems = useApp((s) => s.current?.conv.items);
  const nested = thread !== undefined && thread.conv.id !== currentId;
  const conversationId = thread?.conv.id ?? currentId;
  const items = thread?.conv.items ?? currentItems;
  const [open, setOpen] = useState(false);
  const [diffs, setDiffs] = useState<FileDiff[] | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const { rewind, question, onAnswer } = useRewind({
    conversationId,
    cell,
    items,
    reopen: nested ? reloadThread : openConversation,
    setStatus,
  });
  if (!changes.checkpointed) {
    return (
      <div className="cell-changes muted small" data-testid="cell-changes">
        {changes.note}
      </div>
    );
  }
  const n = changes.files.length;
  const toggle = async () => {
    setOpen(!open);
    if (!open && diffs === null && n > 0 && conversationId) {
      try {
        setDiffs((await bridge['checkpoints.diff']({ conversationId, cellId: cell.id })).files);
      } catch (err) {
        setStatus(plainMessage(err));
      }
    }
  };
  return (
    <div className="cell-changes small" data-testid="cell-changes">
      <div className="row">
        <button className="link" aria-expanded={open} onClick={() => void toggle()} disabled={n === 0}>
          {n === 0 ? 'no files changed' : `${n} file${n === 1 ? '' : 's'} changed`}
        </button>
        {changes.skipped.length > 0 && (
          <span className="muted" title={changes.skipped.map((s) => `${s.path}: ${s.reason}`).join('\n')}>
            · {changes.skipped.length} not checkpointed
          </span>
        )}
        {(changes.unrestorableCount ?? 0) > 0 && (
          <span className="muted" data-testid="cell-unrestorable">
            · {changes.unrestorableCount} a rewind cannot undo
          </span>
        )}
        <button className="link" onClick={() => void rewind()} data-testid="rewind-cell">
          Rewind files to before this cell…
        </button>
      </div>
      {changes.note && <div className="muted">{changes.note}</div>}
      {open && (
        <ul className="changed-files" aria-label="Changed files">
          {changes.files.map((f) => {
            const diff = diffs?.find((d) => d.path === f.path);
            return (
              <li key={`${f.change}:${f.path}`}>
                <span className={`change change-${f.change}`}>{f.change}</span>{' '}
                {f.change === 'renamed' ? `${f.from ?? ''} → ${f.path}` : f.path}{' '}
                <span className="muted">
                  {f.change === 'modified' ? `${size(f.previousSize)} → ${size(f.size)}` : size(f.size ?? f.previousSize)}
                </span>
                {diff && <FileDiffView diff={diff} />}
              </li>
            );
          })}
        </ul>
      )}
      {(changes.unrestorable?.length ?? 0) > 0 && (
        <ul className="muted" aria-label="Not restorable by a rewind">
          {changes.unrestorable?.map((u) => (
            <li key={u.path}>
              {u.path}: {u.reason}
            </li>
          ))}
          {(changes.unrestorableCount ?? 0) > (changes.unrestorable?.length ?? 0) && (
            <li>… and {(changes.unrestorableCount ?? 0) - (changes.unrestorable?.length ?? 0)} more</li>
          )}
        </ul>
      )}
      {open && changes.skipped.length > 0 && (
        <ul className="muted" aria-label="Not checkpointed">
          {changes.skipped.map((s) => (
            <li key={s.path}>
              {s.path}: {s.reason}
            </li>
          ))}
        </ul>
      )}
      {status && (
        <div role="status" className="muted">
          {status}
        </div>
      )}
      {question && <RewindDialog question={question} onAnswer={onAnswer} />}
    </div>
  );
}

function FileDiffView({ diff }: { diff: FileDiff }) {
  if (diff.kind === 'image') {
    return (
      <div className="diff-images">
        {diff.before ? <img src={diff.before} alt={`${diff.path} before`} /> : <span className="muted">(none before)</span>}
        {diff.after ? <img src={diff.after} alt={`${diff.path} after`} /> : <span className="muted">(none after)</span>}
      </div>
    );
  }
  if (diff.kind === 'binary') return <div className="muted">binary file: no text diff</div>;
  if (diff.kind === 'symlink') return <div className="muted">a symbolic link</div>;
  if (diff.kind === 'secret') return <div className="muted">a secrets file (.env, a key): its contents are not shown</div>;
  return (
    <pre className="file-diff" data-testid="file-diff">
      {(diff.diff ?? '')
        .split('\n')
        .filter((line) => !/^(diff --git|index |--- |\+\+\+ )/.test(line))
        .map((line, i) => (
          <span
            key={i}
            className={line.startsWith('+') ? 'diff-add' : line.startsWith('-') ? 'diff-del' : line.startsWith('@@') ? 'diff-hunk' : ''}
          >
            {line}
            {'\n'}
          </span>
        ))}
    </pre>
  );
}
