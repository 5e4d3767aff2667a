import { useState } from 'react';
import type { CellItem } from '@contract';
import { useApp } from '../../state/app-store';
import { RichOutput } from './RichOutput';
import { TerminalView } from './TerminalView';

const STATUS_TEXT: Record<CellItem['status'], string> = {
  streaming: 'writing…',
  'awaiting-approval': 'waiting for your approval',
  running: 'running…',
  done: 'done',
  failed: 'failed',
  timeout: 'timed out',
  interrupted: 'interrupted',
  died: 'session died',
  skipped: 'skipped',
  unavailable: 'runtime not installed',
};

export function CodeCell({ cell, terminal }: { cell: CellItem; terminal: string[] | undefined }) {
  const { approve, skip, interrupt } = useApp();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(cell.code);

  const awaiting = cell.status === 'awaiting-approval';
  const stdout = cell.outputs
    .filter((o) => o.output_type === 'stream')
    .map((o) => (o.output_type === 'stream' ? o.text : ''))
    .join('');
  const chunks = terminal ?? (stdout ? [stdout] : []);

  return (
    <section className={`cell cell-${cell.status}`} data-testid="cell" data-status={cell.status} aria-label={`${cell.language || 'code'} cell`}>
      <header className="cell-head">
        <span className="cell-lang">{cell.language || '…'}</span>
        {cell.executionCount !== null && <span className="cell-count">[{cell.executionCount}]</span>}
        <span className="cell-status" data-testid="cell-status">{STATUS_TEXT[cell.status]}</span>
        {cell.exitCode !== null && <span className="cell-exit">exit {cell.exitCode}</span>}
        {cell.durationMs !== null && <span className="cell-duration">{formatMs(cell.durationMs)}</span>}
        {cell.status === 'running' && (
          <button className="small" onClick={() => void interrupt(cell.id)} aria-label="Stop this run">
            Stop
          </button>
        )}
      </header>
      {editing ? (
        <textarea className="cell-editor" aria-label="Edit code" value={draft} spellCheck={false} onChange={(e) => setDraft(e.target.value)} rows={Math.min(20, draft.split('\n').length + 1)} />
      ) : (
        <pre className="cell-code" data-testid="cell-code">
          <code>{cell.code}</code>
        </pre>
      )}
      {awaiting && (
        <div className="approval" role="group" aria-label="Approve this code">
          <button className="primary" onClick={() => void approve(cell.id, editing ? draft : undefined)}>
            {editing ? 'Run edited code' : 'Run'}
          </button>
          {!editing && (
            <button
              onClick={() => {
                setDraft(cell.code);
                setEditing(true);
              }}
            >
              Edit
            </button>
          )}
          <button onClick={() => void skip(cell.id)}>Skip</button>
          <button onClick={() => void approve(cell.id, editing ? draft : undefined, true)} title="Run this and every later cell of this conversation without asking">
            Always run here
          </button>
        </div>
      )}
      {chunks.length > 0 && <TerminalView key={`${cell.id}-${terminal ? 'live' : 'saved'}`} chunks={chunks} />}
      {cell.outputs.map((o, i) => (
        <RichOutput key={i} output={o} />
      ))}
      {cell.limits && (
        <footer className="cell-limits">
          limits: timeout {formatMs(cell.limits.timeoutMs)}
          {cell.limits.memoryMb !== null && ` · memory ${cell.limits.memoryMb} MB`}
          {cell.limits.maxProcesses !== null && ` · processes ${cell.limits.maxProcesses}`}
          {cell.limits.cpuSeconds !== null && ` · CPU ${cell.limits.cpuSeconds} s`}
          {cell.limits.sandbox ? ` · sandbox ${cell.limits.sandbox}` : ' · no sandbox'}
        </footer>
      )}
    </section>
  );
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 0)} s`;
}
