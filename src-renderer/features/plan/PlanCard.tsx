import { useState } from 'react';
import type { CellItem } from '@contract';
import { planSteps } from '@contract/plan-text';
import { answerPlan } from './plan-actions';

/**
 * A plan the model proposed (docs/ui.md#plan-mode): its steps; while it waits, Approve, Edit (one step
 * a line) and Reject with a reason the model reads. Approving ends plan mode and the steps become the
 * task list above the conversation.
 */
export function PlanCard({ cell }: { cell: CellItem }) {
  const steps = planSteps(cell.code);
  const waiting = cell.status === 'awaiting-approval';
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const edited = draft
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const state =
    cell.status === 'done'
      ? 'Approved'
      : cell.status === 'skipped'
        ? 'Not approved'
        : waiting
          ? 'Waiting for you'
          : cell.status === 'failed'
            ? 'Refused'
            : 'Writing…';
  return (
    <section className={`plan-card plan-${cell.status}`} data-testid="plan-card" aria-label="Proposed plan">
      <header>
        <strong>Proposed plan</strong> <span className="muted">· {state}</span>
        {cell.modelCode !== undefined && <span className="muted"> · edited by you</span>}
      </header>
      {editing && waiting ? (
        <textarea
          aria-label="Plan steps, one a line"
          value={draft}
          rows={Math.min(12, Math.max(3, draft.split('\n').length))}
          onChange={(e) => setDraft(e.target.value)}
        />
      ) : (
        <ol className="plan-steps">
          {steps.map((step, i) => (
            <li key={i}>{step}</li>
          ))}
        </ol>
      )}
      {cell.status === 'skipped' && cell.resultForModel && <p className="muted small">{cell.resultForModel}</p>}
      {cell.status === 'failed' && <p className="muted small">{cell.resultForModel}</p>}
      {waiting && rejecting && (
        <input
          aria-label="Why not (the model reads this)"
          placeholder="Why not? The model reads this and plans again."
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      )}
      {waiting && (
        <div className="plan-actions">
          {!rejecting && (
            <button
              className="primary"
              disabled={editing && edited.length === 0}
              onClick={() => void answerPlan(cell.id, editing ? { approve: true, steps: edited } : { approve: true })}
            >
              Approve{editing ? ' edited plan' : ''}
            </button>
          )}
          {!editing && !rejecting && (
            <button
              onClick={() => {
                setDraft(steps.join('\n'));
                setEditing(true);
              }}
            >
              Edit
            </button>
          )}
          {!editing && (
            <button
              className={rejecting ? 'danger' : ''}
              onClick={() => (rejecting ? void answerPlan(cell.id, { approve: false, reason }) : setRejecting(true))}
            >
              {rejecting ? 'Reject with this reason' : 'Reject'}
            </button>
          )}
          {(editing || rejecting) && (
            <button
              onClick={() => {
                setEditing(false);
                setRejecting(false);
              }}
            >
              Cancel
            </button>
          )}
        </div>
      )}
    </section>
  );
}
