import { useEffect, useState } from 'react';
import { plainMessage } from '../../state/plain-error';
import { useMcp } from './mcp-store';

/** Imports the servers of a Claude Desktop / Cursor / VS Code / Windsurf file: found ones, or a typed path. */
export function McpImportPanel({ onDone }: { onDone(): void }) {
  const { sources, listSources, importFile } = useMcp();
  const [path, setPath] = useState('');
  const [replace, setReplace] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => void listSources(), [listSources]);

  const run = async (file: string) => {
    setMessage(null);
    try {
      setMessage({ ok: true, text: await importFile(file, replace) });
    } catch (err) {
      setMessage({ ok: false, text: plainMessage(err) });
    }
  };

  return (
    <div className="mcp-import" data-testid="mcp-import">
      <h3>Import servers from another app</h3>
      {sources?.length ? (
        <ul>
          {sources.map((s) => (
            <li key={s.path}>
              <strong>{s.app}</strong> <code>{s.path}</code>{' '}
              {s.error ? <span className="field-error">{s.error}</span> : <span className="muted">{s.servers.join(', ')}</span>}{' '}
              {!s.error && <button onClick={() => void run(s.path)}>Import</button>}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">
          {sources ? 'No Claude Desktop, Claude Code, Cursor, VS Code or Windsurf config file was found in its usual place.' : 'Looking…'}
        </p>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (path.trim()) void run(path.trim());
        }}
      >
        <label className="field">
          Or the path of a config file (mcpServers, or VS Code’s servers)
          <input value={path} onChange={(e) => setPath(e.target.value)} placeholder="~/.cursor/mcp.json" aria-label="Config file path" />
        </label>
        <label>
          <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.target.checked)} /> Replace servers of the same name
        </label>{' '}
        <button type="submit">Import file</button>{' '}
        <button type="button" onClick={onDone}>
          Close
        </button>
      </form>
      {message && (
        <p className={message.ok ? 'small' : 'field-error'} role={message.ok ? 'status' : 'alert'} data-testid="mcp-import-message">
          {message.text}
        </p>
      )}
    </div>
  );
}
