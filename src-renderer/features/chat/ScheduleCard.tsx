import type { CellItem } from '@contract';
import { describeProposal, readScheduleProposal } from '@contract/schedule-proposal';
import { useApp } from '../../state/app-store';

/**
 * A scheduled task the model proposed (docs/schedules.md#from-a-conversation): exactly what will run,
 * when, where and under which policy; while it waits, Schedule it or Decline. Nothing is scheduled
 * before the person says so, auto-run or not; there is no "always" here.
 */
export function ScheduleCard({ cell }: { cell: CellItem }) {
  const approve = useApp((s) => s.approve);
  const skip = useApp((s) => s.skip);
  const read = readScheduleProposal(cell.code);
  const waiting = cell.status === 'awaiting-approval';
  const state =
    cell.status === 'done'
      ? 'Scheduled'
      : cell.status === 'skipped'
        ? 'Not scheduled'
        : cell.status === 'failed'
          ? 'Refused'
          : waiting
            ? 'Waiting for you'
            : 'Writing…';
  return (
    <section className={`plan-card schedule-card schedule-${cell.status}`} data-testid="schedule-card" aria-label="Proposed scheduled task">
      <header>
        <strong>Proposed scheduled task</strong> <span className="muted">· {state}</span>
      </header>
      {read.ok && (
        <dl className="schedule-proposal">
          {describeProposal(read.proposal).map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      )}
      {(cell.status === 'skipped' || cell.status === 'failed') && <p className="muted small">{cell.resultForModel}</p>}
      {waiting && (
        <div className="plan-actions">
          <button className="primary" onClick={() => void approve(cell.id)}>
            Schedule it
          </button>
          <button onClick={() => void skip(cell.id)}>Decline</button>
        </div>
      )}
    </section>
  );
}
