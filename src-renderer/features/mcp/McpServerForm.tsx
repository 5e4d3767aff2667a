import { useState, type FormEvent } from 'react';
import type { McpServerConfig } from '@contract';
import { useMcp } from './mcp-store';
import { buildConfig, emptyForm, formFrom, type SecretRow, type ServerForm } from './server-form-fields';

interface Props {
  /** The server edited, or null to add one. */
  editing: { name: string; config: McpServerConfig } | null;
  onDone(): void;
}

/** Adds or edits one server; main refuses anything invalid, naming the field, and saves nothing then. */
export function McpServerForm({ editing, onDone }: Props) {
  const save = useMcp((s) => s.save);
  const [form, setForm] = useState<ServerForm>(editing ? formFrom(editing.name, editing.config) : emptyForm);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = <K extends keyof ServerForm>(key: K) => ({
    value: form[key],
    onChange: (e: { target: { value: string } }) => setForm({ ...form, [key]: e.target.value }),
  });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const built = buildConfig(form, editing?.config);
    if (!built.ok) return setError(built.error);
    setBusy(true);
    const values = built.secretValues;
    const hasValues = Object.keys(values).length > 0;
    const refused = await save({
      name: form.name.trim(),
      ...(editing && editing.name !== form.name.trim() ? { previousName: editing.name } : {}),
      config: built.config,
      ...(hasValues ? { secretValues: form.kind === 'url' ? { headers: values } : { env: values } } : {}),
    });
    setBusy(false);
    if (refused) return setError(refused);
    onDone();
  };

  return (
    <form
      className="mcp-form"
      onSubmit={(e) => void submit(e)}
      data-testid="mcp-form"
      aria-label={editing ? `Edit ${editing.name}` : 'Add an MCP server'}
    >
      <label className="field">
        Name
        <input {...field('name')} placeholder="github" required aria-label="Server name" />
      </label>
      <fieldset className="mcp-kind">
        <label>
          <input type="radio" checked={form.kind === 'program'} onChange={() => setForm({ ...form, kind: 'program' })} /> A program (stdio)
        </label>
        <label>
          <input type="radio" checked={form.kind === 'url'} onChange={() => setForm({ ...form, kind: 'url' })} /> A URL (HTTP)
        </label>
      </fieldset>
      {form.kind === 'program' ? (
        <>
          <label className="field">
            Command
            <input {...field('command')} placeholder="npx" aria-label="Command" />
          </label>
          <label className="field">
            Arguments, one a line
            <textarea
              {...field('args')}
              rows={3}
              placeholder={'-y\n@modelcontextprotocol/server-filesystem\n/home/me/notes'}
              aria-label="Arguments"
            />
          </label>
          <label className="field">
            Working folder (optional)
            <input {...field('cwd')} aria-label="Working folder" />
          </label>
          <label className="field">
            Environment, NAME=value a line (the server gets only these, never the app’s keys)
            <textarea {...field('env')} rows={2} aria-label="Environment" />
          </label>
        </>
      ) : (
        <>
          <label className="field">
            URL
            <input {...field('url')} placeholder="https://example.com/mcp" aria-label="URL" />
          </label>
          <label className="field">
            Transport
            <select {...field('transport')} aria-label="Transport">
              <option value="auto">Streamable HTTP, else the old SSE</option>
              <option value="http">Streamable HTTP only</option>
              <option value="sse">SSE only (old servers)</option>
            </select>
          </label>
          <label className="field">
            Headers, Name: value a line
            <textarea {...field('headers')} rows={2} aria-label="Headers" />
          </label>
        </>
      )}
      <SecretRows kind={form.kind} rows={form.secrets} onChange={(secrets) => setForm({ ...form, secrets })} />
      {error && (
        <p className="field-error" role="alert" data-testid="mcp-form-error">
          {error}
        </p>
      )}
      <div className="mcp-form-buttons">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving and connecting…' : 'Save'}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * Secret env variables (or headers): a name and a masked value a row. A saved one shows its name and
 * an empty value (the keychain keeps it unless a new one is typed); no value ever comes back here.
 */
function SecretRows({ kind, rows, onChange }: { kind: ServerForm['kind']; rows: SecretRow[]; onChange(rows: SecretRow[]): void }) {
  const set = (i: number, change: Partial<SecretRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));
  return (
    <fieldset className="mcp-secrets" data-testid="mcp-secrets">
      <legend>
        Secrets ({kind === 'url' ? 'headers' : 'environment variables'}) — kept in the OS keychain, never in the settings file; a line above
        whose name looks secret (…TOKEN, …KEY, Authorization) moves here when saved
      </legend>
      {rows.map((r, i) => (
        <div className="mcp-secret-row" key={i}>
          <input
            value={r.name}
            onChange={(e) => set(i, { name: e.target.value, saved: false })}
            placeholder={kind === 'url' ? 'Authorization' : 'API_TOKEN'}
            aria-label={`Secret ${i + 1} name`}
            spellCheck={false}
            autoComplete="off"
          />
          <input
            type="password"
            value={r.value}
            onChange={(e) => set(i, { value: e.target.value })}
            placeholder={r.saved ? 'saved — type to replace' : 'value'}
            aria-label={`Secret ${i + 1} value`}
            autoComplete="new-password"
          />
          <button type="button" onClick={() => onChange(rows.filter((_, j) => j !== i))} aria-label={`Remove secret ${i + 1}`}>
            Remove
          </button>
        </div>
      ))}
      <button type="button" onClick={() => onChange([...rows, { name: '', value: '', saved: false }])}>
        Add secret
      </button>
    </fieldset>
  );
}
