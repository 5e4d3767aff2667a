import { useState, type FormEvent } from 'react';
import type { McpServerConfig } from '@contract';
import { useMcp } from './mcp-store';
import { buildConfig, emptyForm, formFrom, type ServerForm } from './server-form-fields';

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
    onChange: (e: { target: { value: string } }) => setForm({ ...form, [key]: e.target.value as ServerForm[K] }),
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
      <label className="field">
        Secrets ({form.kind === 'url' ? 'headers' : 'environment variables'}), NAME=value a line — kept in the OS keychain, never in the
        settings file; NAME= alone keeps the saved value
        <textarea {...field('secrets')} rows={2} className="mcp-secrets" spellCheck={false} autoComplete="off" aria-label="Secrets" />
      </label>
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
