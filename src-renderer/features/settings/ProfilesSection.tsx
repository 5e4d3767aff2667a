import { useEffect, useState } from 'react';
import type { Profile, ProfileEntry, Settings } from '@contract';
import { plainMessage } from '../../state/plain-error';
import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';
import { PROFILES_CHANGED } from '../common/profiles-changed';

/**
 * Settings → Profiles (docs/agent.md#profiles): named sets of settings in `<data folder>/profiles`,
 * made from the current settings, their few fields edited here (other fields of the file, such as
 * hooks, are kept), used from the top bar's Profile menu or with `oi --profile NAME`.
 */
export function ProfilesSection() {
  const settings = useApp((s) => s.settings);
  const [entries, setEntries] = useState<ProfileEntry[]>([]);
  const [newName, setNewName] = useState('');
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const report = (err: unknown) => setMessage({ error: true, text: plainMessage(err) });
  const done = (text: string) => (list: ProfileEntry[]) => {
    setEntries(list);
    window.dispatchEvent(new Event(PROFILES_CHANGED));
    setMessage({ error: false, text });
  };
  useEffect(() => void bridge['profiles.list']({}).then(setEntries, report), []);
  if (!settings) return null;

  const create = (e: React.FormEvent) => {
    e.preventDefault();
    bridge['profiles.save']({ name: newName.trim(), profile: fromSettings(settings) }).then((list) => {
      done(`Saved profile “${newName.trim()}”.`)(list);
      setNewName('');
    }, report);
  };
  return (
    <section className="settings-section" aria-labelledby="section-profiles" data-testid="profiles-section">
      <h2 id="section-profiles">Profiles</h2>
      <p className="muted small">
        Named sets of settings — model, instructions, auto-run, sandbox — kept in the app’s data folder (never a workspace). Use one from
        the top bar’s Profile menu, or with <code>oi --profile NAME</code>.
      </p>
      <form onSubmit={create}>
        <input aria-label="New profile name" placeholder="name" value={newName} onChange={(e) => setNewName(e.target.value)} />
        <button type="submit" disabled={newName.trim() === ''}>
          Save current settings as a profile
        </button>
      </form>
      {entries.map((entry) => (
        <ProfileRow
          key={entry.name}
          entry={entry}
          save={(name, profile) =>
            void bridge['profiles.save']({ name, profile, previousName: entry.name }).then(done(`Saved profile “${name}”.`), report)
          }
          remove={() => void bridge['profiles.delete']({ name: entry.name }).then(done(`Deleted profile “${entry.name}”.`), report)}
        />
      ))}
      {message && (
        <p className={message.error ? 'error small' : 'muted small'} role={message.error ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
    </section>
  );
}

/** The current settings as a profile: the fields a profile has. */
function fromSettings(s: Settings): Profile {
  return {
    provider: s.provider,
    model: s.model,
    ...(s.baseUrl ? { baseUrl: s.baseUrl } : {}),
    ...(s.customInstructions ? { instructions: s.customInstructions } : {}),
    autoRun: s.autoRun,
    sandbox: s.sandbox.enabled,
  };
}

const UNSET = '';

function ProfileRow(props: { entry: ProfileEntry; save: (name: string, p: Profile) => void; remove: () => void }) {
  const { entry } = props;
  const p = entry.profile ?? {};
  const [name, setName] = useState(entry.name);
  const [model, setModel] = useState(p.model ?? '');
  const [instructions, setInstructions] = useState(p.instructions ?? '');
  const [autoRun, setAutoRun] = useState(p.autoRun === undefined ? UNSET : String(p.autoRun));
  const [sandbox, setSandbox] = useState(p.sandbox === undefined ? UNSET : String(p.sandbox));
  const label = (what: string) => `${what} of profile ${entry.name}`;
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    // The file's other fields (description, hooks…) are kept; an emptied field is left to Settings.
    const { model: _m, instructions: _i, autoRun: _a, sandbox: _s, ...rest } = p;
    props.save(name.trim(), {
      ...rest,
      ...(model.trim() ? { model: model.trim() } : {}),
      ...(instructions ? { instructions } : {}),
      ...(autoRun === UNSET ? {} : { autoRun: autoRun === 'true' }),
      ...(sandbox === UNSET ? {} : { sandbox: sandbox === 'true' }),
    });
  };
  const onOff = (value: string, set: (v: string) => void, what: string) => (
    <select aria-label={label(what)} value={value} onChange={(e) => set(e.target.value)}>
      <option value={UNSET}>as Settings</option>
      <option value="true">on</option>
      <option value="false">off</option>
    </select>
  );
  return (
    <form className="profile-row" data-testid={`profile-${entry.name}`} onSubmit={submit}>
      {entry.error && (
        <p className="error small" role="alert">
          {entry.error}
        </p>
      )}
      <input aria-label={label('Name')} value={name} onChange={(e) => setName(e.target.value)} />
      <input aria-label={label('Model')} placeholder="model (as Settings)" value={model} onChange={(e) => setModel(e.target.value)} />
      <textarea aria-label={label('Instructions')} rows={3} value={instructions} onChange={(e) => setInstructions(e.target.value)} />
      <label>Auto-run {onOff(autoRun, setAutoRun, 'Auto-run')}</label>
      <label>Sandbox {onOff(sandbox, setSandbox, 'Sandbox')}</label>
      <button type="submit" disabled={entry.profile === null}>
        Save
      </button>
      <button type="button" onClick={props.remove}>
        Delete
      </button>
    </form>
  );
}
