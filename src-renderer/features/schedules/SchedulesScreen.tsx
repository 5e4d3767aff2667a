import { useCallback, useEffect, useState } from 'react';
import type { ScheduleDraft, ScheduleEntry, ScheduleListing, ScheduleRunRecord } from '@contract';
import { describeWhen } from '@contract/schedules';
import { plainMessage } from '../../state/plain-error';
import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';
import { ScheduleForm } from './ScheduleForm';

// Scheduled tasks (docs/schedules.md#the-schedules-screen): the list with each task's times, where it
// runs, its policy and its last runs (result, cost, a missed time caught up), and Run now, Edit and
// Remove; a form makes a new one. Every change goes through the schedules.* requests, which do what
// `oi schedule` does. The list is read again every few seconds while the screen is open: a run's
// record is written by its own process when it ends.

const REFRESH_MS = 3000;

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '');

function runLine(run: ScheduleRunRecord): string {
  const missed = run.trigger === 'missed' ? ` — missed at ${when(run.dueAt)}, caught up` : '';
  return `${when(run.startedAt)} · ${run.trigger}${missed} · ${run.result} · $${run.costUsd.toFixed(4)}`;
}

export function SchedulesScreen() {
  const [listing, setListing] = useState<ScheduleListing | null>(null);
  /** 'new', or the id of the task being edited. */
  const [editing, setEditing] = useState<string | null>(null);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const folder = useApp((s) => s.current?.conv.workspace ?? '');
  const report = useCallback((err: unknown) => setMessage({ error: true, text: plainMessage(err) }), []);
  const refresh = useCallback(() => bridge['schedules.list']({}).then(setListing, report), [report]);
  useEffect(() => {
    void refresh();
    const timer = setInterval(() => void refresh(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [refresh]);

  const save = (draft: ScheduleDraft, id?: string) =>
    bridge['schedules.save']({ draft, ...(id ? { id } : {}) }).then((list) => {
      setListing(list);
      setEditing(null);
      setMessage({ error: false, text: `Saved “${draft.name.trim()}”.` });
    }, report);
  const remove = (entry: ScheduleEntry) =>
    bridge['schedules.remove']({ id: entry.schedule.id }).then((list) => {
      setListing(list);
      setMessage({ error: false, text: `Removed “${entry.schedule.name}”.` });
    }, report);
  const run = (entry: ScheduleEntry) =>
    bridge['schedules.run']({ id: entry.schedule.id }).then(() => {
      setMessage({ error: false, text: `Started “${entry.schedule.name}”; its result shows here when it ends.` });
      void refresh();
    }, report);

  return (
    <div className="screen schedules-screen" data-testid="schedules-screen">
      <h1>Scheduled tasks</h1>
      <p className="muted small">
        A prompt run in a folder at set times, or when a file arrives, with nobody at the keyboard: each run is a conversation of its own.
        The same tasks as <code>oi schedule</code>.
      </p>
      {listing && (
        <p className="muted small" data-testid="schedules-runner">
          {listing.runner === 'in-app'
            ? `Timed tasks run while this app (or browser mode) is open${listing.note ? `: ${listing.note}` : ''}.`
            : `Timed tasks run through ${listing.runner}, with the app closed too.`}{' '}
          Folder tasks run while the app is open.
        </p>
      )}
      {editing === 'new' ? (
        <ScheduleForm
          initial={null}
          defaultFolder={folder}
          submitLabel="Add task"
          onSubmit={(d) => void save(d)}
          onCancel={() => setEditing(null)}
        />
      ) : (
        <button type="button" onClick={() => setEditing('new')}>
          New task
        </button>
      )}
      {message && (
        <p className={message.error ? 'error small' : 'muted small'} role={message.error ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
      {listing?.schedules.length === 0 && <p className="muted">No scheduled tasks yet.</p>}
      {listing?.schedules.map((entry) =>
        editing === entry.schedule.id ? (
          <ScheduleForm
            key={entry.schedule.id}
            initial={entry.schedule}
            defaultFolder={folder}
            submitLabel="Save"
            onSubmit={(d) => void save(d, entry.schedule.id)}
            onCancel={() => setEditing(null)}
          />
        ) : (
          <ScheduleRow
            key={entry.schedule.id}
            entry={entry}
            run={() => void run(entry)}
            edit={() => setEditing(entry.schedule.id)}
            remove={() => void remove(entry)}
          />
        ),
      )}
    </div>
  );
}

function ScheduleRow(props: { entry: ScheduleEntry; run: () => void; edit: () => void; remove: () => void }) {
  const { schedule: s, next, runs, running } = props.entry;
  const open = useApp((st) => st.openConversation);
  const setScreen = useApp((st) => st.setScreen);
  const policy = `${s.policy.code === 'auto-run' ? 'code runs' : 'code refused, report only'} · sandbox ${s.policy.sandbox} · $${s.policy.budgetUsd} · ${s.policy.timeLimitMinutes} min`;
  return (
    <section className="settings-section schedule-row" data-testid={`schedule-${s.id}`} aria-label={s.name}>
      <h2>{s.name}</h2>
      <p className="small">
        {describeWhen(s.when)} · {s.runner}
        {next ? ` · next ${when(next)}` : ''}
      </p>
      <p className="muted small">
        in {s.workspace} · {policy}
      </p>
      <p className="small schedule-prompt">{s.prompt}</p>
      <div className="schedule-actions">
        <button type="button" onClick={props.run} disabled={running}>
          {running ? 'Running…' : 'Run now'}
        </button>
        <button type="button" onClick={props.edit}>
          Edit
        </button>
        <button type="button" onClick={props.remove}>
          Remove
        </button>
      </div>
      {runs.length > 0 && (
        <ul className="schedule-runs" aria-label={`Last runs of ${s.name}`}>
          {runs.map((r) => (
            <li key={`${r.startedAt}-${r.trigger}`} className={r.trigger === 'missed' ? 'missed' : undefined}>
              {runLine(r)}
              {r.conversationId && (
                <button
                  type="button"
                  className="link-button"
                  onClick={() => {
                    setScreen('chat');
                    void open(r.conversationId ?? '');
                  }}
                >
                  Open
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
