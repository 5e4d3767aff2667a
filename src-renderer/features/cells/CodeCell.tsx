import { memo, useState } from 'react';
import type { CellItem } from '@contract';
import { CodeLines } from '../highlight/CodeLines';
import { ApprovalBar } from './ApprovalBar';
import { CellHeader } from './CellHeader';
import { CellOutputs } from './CellOutputs';
import { InputPrompt } from './InputPrompt';
import { InstallPrompt } from './InstallPrompt';
import { NetworkPrompt } from './NetworkPrompt';
import { LimitsLine } from './LimitsLine';
import { CellChangesLine } from '../checkpoints/CellChangesLine';

/** A code cell: the model's code (filling in as it streams), the approval bar, live output, results. */
export const CodeCell = memo(function CodeCell({ cell }: { cell: CellItem }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(cell.code);
  const awaiting = cell.status === 'awaiting-approval';
  const showEditor = editing && awaiting;

  return (
    <section
      className={`cell cell-${cell.status}`}
      data-testid="cell"
      data-status={cell.status}
      aria-label={`${cell.language || 'code'} cell, ${cell.status}`}
    >
      <CellHeader cell={cell} />
      {showEditor ? (
        <textarea
          className="cell-editor"
          aria-label="Edit code"
          value={draft}
          spellCheck={false}
          autoFocus
          onChange={(e) => setDraft(e.target.value)}
          rows={Math.min(24, draft.split('\n').length + 1)}
        />
      ) : (
        <CodeLines
          className="cell-code"
          testId="cell-code"
          code={cell.code || (cell.status === 'streaming' ? '…' : '')}
          language={cell.language}
        />
      )}
      {cell.modelCode !== undefined && (
        <details className="model-code" data-testid="model-code">
          <summary className="small muted">What the model wrote, before your edit</summary>
          <CodeLines className="cell-code" code={cell.modelCode} language={cell.language} />
        </details>
      )}
      {awaiting && (
        <ApprovalBar
          cell={cell}
          editing={showEditor}
          draft={draft}
          onEdit={() => {
            setDraft(cell.code);
            setEditing(true);
          }}
          onCancelEdit={() => setEditing(false)}
        />
      )}
      {cell.status === 'running' && <InstallPrompt cellId={cell.id} />}
      {cell.status === 'running' && <NetworkPrompt cellId={cell.id} />}
      <CellOutputs cell={cell} />
      <InputPrompt cellId={cell.id} />
      {cell.limits && <LimitsLine limits={cell.limits} />}
      {cell.changes && <CellChangesLine cell={cell} changes={cell.changes} />}
    </section>
  );
});
