import { useState } from 'react';
import type { ScheduleDraft } from '@contract';
import { DEFAULT_POLICY, WEEKDAYS, type ScheduleWhen, type UnattendedPolicy, type Weekday } from '@contract/schedules';

// The form that makes or edits a scheduled task (docs/schedules.md#the-schedules-screen). Times are
// structured, as the store keeps them; main checks every field again and names what is wrong.

type Kind = ScheduleWhen['kind'];
const KINDS: Array<[Kind, string]> = [
  ['weekly', 'On days, at a time'],
  ['every', 'Every N minutes or hours'],
  ['once', 'Once'],
  ['folder', 'When a new file appears in a folder'],
  ['manual', 'Only when started'],
];
const WEEKDAYS_ONLY: Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri'];

export function ScheduleForm(props: {
  initial: ScheduleDraft | null;
  defaultFolder: string;
  submitLabel: string;
  onSubmit: (draft: ScheduleDraft) => void;
  onCancel: () => void;
}) {
  const init = props.initial;
  const w = init?.when;
  const [name, setName] = useState(init?.name ?? '');
  const [prompt, setPrompt] = useState(init?.prompt ?? '');
  const [workspace, setWorkspace] = useState(init?.workspace ?? props.defaultFolder);
  const [kind, setKind] = useState<Kind>(w?.kind ?? 'weekly');
  const [days, setDays] = useState<Weekday[]>(w?.kind === 'weekly' ? w.days : WEEKDAYS_ONLY);
  const [time, setTime] = useState(w?.kind === 'weekly' ? w.time : '09:00');
  const [n, setN] = useState(w?.kind === 'every' ? String(w.n) : '15');
  const [unit, setUnit] = useState<'minutes' | 'hours'>(w?.kind === 'every' ? w.unit : 'minutes');
  const [at, setAt] = useState(w?.kind === 'once' ? w.at : '');
  const [folder, setFolder] = useState(w?.kind === 'folder' ? w.folder : '');
  const policy = init?.policy ?? DEFAULT_POLICY;
  const [sandbox, setSandbox] = useState(policy.sandbox === 'required');
  const [code, setCode] = useState<UnattendedPolicy['code']>(policy.code);
  const [budget, setBudget] = useState(String(policy.budgetUsd));
  const [minutes, setMinutes] = useState(String(policy.timeLimitMinutes));

  const when = (): ScheduleWhen => {
    switch (kind) {
      case 'weekly':
        return { kind, days: WEEKDAYS.filter((d) => days.includes(d)), time };
      case 'every':
        return { kind, unit, n: Number(n) };
      case 'once':
        return { kind, at };
      case 'folder':
        return { kind, folder: folder.trim() };
      case 'manual':
        return { kind };
    }
  };
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    props.onSubmit({
      name,
      prompt,
      workspace: workspace.trim(),
      when: when(),
      policy: { sandbox: sandbox ? 'required' : 'off', code, budgetUsd: Number(budget), timeLimitMinutes: Number(minutes) },
    });
  };
  const toggleDay = (d: Weekday) => setDays((all) => (all.includes(d) ? all.filter((x) => x !== d) : [...all, d]));

  return (
    <form className="settings-section schedule-form" data-testid="schedule-form" onSubmit={submit} noValidate>
      <label className="schedule-field">
        Name <input aria-label="Task name" value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label className="schedule-field">
        Prompt
        <textarea aria-label="Task prompt" rows={3} value={prompt} onChange={(e) => setPrompt(e.target.value)} />
      </label>
      <label className="schedule-field">
        Folder the code works in
        <input aria-label="Task folder" placeholder="/home/you/reports" value={workspace} onChange={(e) => setWorkspace(e.target.value)} />
      </label>
      <label className="schedule-field">
        When
        <select aria-label="When" value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
          {KINDS.map(([k, label]) => (
            <option key={k} value={k}>
              {label}
            </option>
          ))}
        </select>
      </label>
      {kind === 'weekly' && (
        <fieldset className="schedule-days">
          <legend className="small">Days</legend>
          {WEEKDAYS.map((d) => (
            <label key={d}>
              <input type="checkbox" aria-label={d} checked={days.includes(d)} onChange={() => toggleDay(d)} /> {d}
            </label>
          ))}
          <input type="time" aria-label="Time of day" value={time} onChange={(e) => setTime(e.target.value)} />
        </fieldset>
      )}
      {kind === 'every' && (
        <div className="schedule-days">
          Every <input type="number" aria-label="Interval" min={1} value={n} onChange={(e) => setN(e.target.value)} />
          <select aria-label="Interval unit" value={unit} onChange={(e) => setUnit(e.target.value as 'minutes' | 'hours')}>
            <option value="minutes">minutes</option>
            <option value="hours">hours</option>
          </select>
        </div>
      )}
      {kind === 'once' && (
        <input type="datetime-local" aria-label="Date and time" value={at} onChange={(e) => setAt(e.target.value.slice(0, 16))} />
      )}
      {kind === 'folder' && (
        <input aria-label="Watched folder" placeholder="/home/you/inbox" value={folder} onChange={(e) => setFolder(e.target.value)} />
      )}
      <fieldset className="schedule-days">
        <legend className="small">With nobody there</legend>
        <label>
          <input type="checkbox" aria-label="Sandbox required" checked={sandbox} onChange={(e) => setSandbox(e.target.checked)} /> Sandbox
          required
        </label>
        <select aria-label="Code" value={code} onChange={(e) => setCode(e.target.value as UnattendedPolicy['code'])}>
          <option value="auto-run">code runs without asking</option>
          <option value="report">code is refused; the model only reports</option>
        </select>
        <label>
          Budget $<input type="number" aria-label="Budget" min={0} step="0.01" value={budget} onChange={(e) => setBudget(e.target.value)} />
        </label>
        <label>
          Time limit{' '}
          <input type="number" aria-label="Time limit" min={0.1} step="any" value={minutes} onChange={(e) => setMinutes(e.target.value)} />{' '}
          min
        </label>
      </fieldset>
      <div className="schedule-actions">
        <button type="submit">{props.submitLabel}</button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
