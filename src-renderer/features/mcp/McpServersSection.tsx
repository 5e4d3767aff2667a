import { useEffect, useState } from 'react';
import type { McpServerConfig, McpServerStatus, McpToolPolicy } from '@contract';
import { useApp } from '../../state/app-store';
import { McpImportPanel } from './McpImportPanel';
import { McpServerForm } from './McpServerForm';
import { useMcp, watchMcp } from './mcp-store';
import './mcp.css';

const STATE_WORDS: Record<McpServerStatus['state'], string> = {
  idle: 'not started (starts when a conversation needs it)',
  starting: 'starting…',
  connected: 'connected',
  crashed: 'crashed — restarts when next needed',
  failed: 'failed to start',
  disabled: 'off',
};

/** While settings load: one object, so the selector's answer is the same each time (no re-render for nothing). */
const NO_SERVERS: Record<string, McpServerConfig> = {};

/** Settings → MCP servers: each server's state, tools and log; add, edit, import, turn off, remove. */
export function McpServersSection() {
  const configs = useApp((s) => s.settings?.mcpServers ?? NO_SERVERS);
  const { servers, error, refresh } = useMcp();
  const [mode, setMode] = useState<{ kind: 'add' } | { kind: 'edit'; name: string } | { kind: 'import' } | null>(null);
  useEffect(() => {
    void refresh();
    return watchMcp();
  }, [refresh]);

  const editing = mode?.kind === 'edit' && configs[mode.name] ? { name: mode.name, config: configs[mode.name]! } : null;
  return (
    <section className="settings-section mcp-section" aria-labelledby="section-mcp" data-testid="mcp-section">
      <h2 id="section-mcp">MCP servers</h2>
      <p className="muted small">
        Tools of these servers are offered to the model as mcp__server__tool; each call asks first unless you always allow that tool. A
        server gets only the environment written here.
      </p>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {servers?.length === 0 && !mode && <p className="muted small">No servers yet.</p>}
      <ul className="mcp-servers">
        {servers?.map((s) => (
          <ServerRow key={s.name} status={s} onEdit={() => setMode({ kind: 'edit', name: s.name })} />
        ))}
      </ul>
      {mode?.kind === 'add' && <McpServerForm editing={null} onDone={() => setMode(null)} />}
      {editing && <McpServerForm key={editing.name} editing={editing} onDone={() => setMode(null)} />}
      {mode?.kind === 'import' && <McpImportPanel onDone={() => setMode(null)} />}
      {!mode && (
        <div className="mcp-actions">
          <button onClick={() => setMode({ kind: 'add' })}>Add server</button>{' '}
          <button onClick={() => setMode({ kind: 'import' })}>Import from Claude Desktop, Cursor, VS Code…</button>
        </div>
      )}
    </section>
  );
}

function ServerRow({ status: s, onEdit }: { status: McpServerStatus; onEdit(): void }) {
  const { setEnabled, connect, remove, setToolPolicy } = useMcp();
  const [open, setOpen] = useState<'tools' | 'log' | null>(null);
  const [confirm, setConfirm] = useState(false);
  return (
    <li className="mcp-server" data-testid={`mcp-server-${s.name}`}>
      <div className="mcp-server-head">
        <input
          type="checkbox"
          role="switch"
          checked={s.state !== 'disabled'}
          onChange={(e) => void setEnabled(s.name, e.target.checked)}
          aria-label={`${s.name} on`}
        />
        <strong>{s.name}</strong>
        <span className={`mcp-state mcp-state-${s.state}`} data-testid="mcp-state">
          {STATE_WORDS[s.state]}
        </span>
        {s.transport && <span className="muted small">{s.transport}</span>}
        {s.tools && <span className="muted small">{s.toolCount} tools</span>}
        {s.restarts > 0 && <span className="muted small">{s.restarts} crashes</span>}
        <span className="mcp-spacer" />
        {s.state !== 'disabled' && s.state !== 'starting' && (
          <button onClick={() => void connect(s.name)}>{s.state === 'connected' ? 'Refresh' : 'Connect'}</button>
        )}
        <button onClick={() => setOpen(open === 'tools' ? null : 'tools')} aria-expanded={open === 'tools'}>
          Tools
        </button>
        <button onClick={() => setOpen(open === 'log' ? null : 'log')} aria-expanded={open === 'log'}>
          Log
        </button>
        <button onClick={onEdit}>Edit</button>
        {confirm ? (
          <>
            <button className="danger" onClick={() => void remove(s.name)}>
              Remove {s.name}
            </button>
            <button onClick={() => setConfirm(false)}>Keep</button>
          </>
        ) : (
          <button onClick={() => setConfirm(true)}>Remove</button>
        )}
      </div>
      {s.missingSecrets.length > 0 && (
        <p className="field-error small">No value saved for the secret {s.missingSecrets.join(', ')}: edit the server to set it.</p>
      )}
      {s.lastError && (
        <p className="field-error small" data-testid="mcp-last-error">
          {s.lastError}
        </p>
      )}
      {open === 'tools' &&
        (s.tools ? (
          <ul className="mcp-tools" data-testid="mcp-tools">
            {s.tools.map((t) => (
              <li key={t.name}>
                <select
                  value={t.policy}
                  onChange={(e) => void setToolPolicy(s.name, t.name, e.target.value as McpToolPolicy)}
                  aria-label={`${t.name} policy`}
                >
                  <option value="ask">Ask</option>
                  <option value="allow">Always allow</option>
                  <option value="disabled">Off</option>
                </select>{' '}
                <code>{t.name}</code>
                {t.readOnly && (
                  <span
                    className="muted small"
                    title="The server marks this tool read-only, so it runs without asking unless you set it to Ask."
                  >
                    {' '}
                    read-only (as the server says; allowed unless set to Ask)
                  </span>
                )}
                <span className="muted small"> {t.description.slice(0, 200)}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted small">Connect the server to list its tools.</p>
        ))}
      {open === 'log' && (
        <pre className="mcp-log" data-testid="mcp-log">
          {s.stderrTail || '(nothing written to stderr)'}
        </pre>
      )}
    </li>
  );
}
