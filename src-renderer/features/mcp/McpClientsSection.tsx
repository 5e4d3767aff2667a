import { useState } from 'react';
import type { McpClientPolicy } from '@contract';
import { useApp } from '../../state/app-store';

const WORDS: Record<McpClientPolicy, string> = { ask: 'Ask', allow: 'Always allow', refuse: 'Refuse' };

/** While settings load: one object, so the selector's answer is the same each time (no re-render for nothing). */
const NO_CLIENTS: Record<string, McpClientPolicy> = {};

/**
 * Settings → Clients of oi mcp: what each client (by the name it gives) may do when it asks to run code
 * or write a file — ask here, always allow (what "Always allow" on a request saves), or refuse. A name
 * not listed is asked about. `oi mcp --auto-run` allows every client except those set to Refuse.
 */
export function McpClientsSection() {
  const clients = useApp((s) => s.settings?.mcpClients ?? NO_CLIENTS);
  const updateSettings = useApp((s) => s.updateSettings);
  const [name, setName] = useState('');
  const set = (client: string, policy: McpClientPolicy | null) => {
    const next = { ...clients };
    if (policy === null) delete next[client];
    else next[client] = policy;
    void updateSettings({ mcpClients: next });
  };
  const names = Object.keys(clients).sort();
  return (
    <section className="settings-section" aria-labelledby="section-mcp-clients" data-testid="mcp-clients-section">
      <h2 id="section-mcp-clients">Clients of oi mcp</h2>
      <p className="muted small">
        Other agents (Claude Desktop, Cursor, goose…) that run code here through <code>oi mcp</code>, by the name each gives — its own word,
        not a proof. A client not listed is asked about in this window while the app runs, and refused when it does not.
      </p>
      {names.length > 0 && (
        <ul className="mcp-tools">
          {names.map((client) => (
            <li key={client}>
              <select
                value={clients[client]}
                onChange={(e) => set(client, e.target.value as McpClientPolicy)}
                aria-label={`${client} policy`}
              >
                {(Object.keys(WORDS) as McpClientPolicy[]).map((p) => (
                  <option key={p} value={p}>
                    {WORDS[p]}
                  </option>
                ))}
              </select>{' '}
              <code>{client}</code> <button onClick={() => set(client, null)}>Forget</button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) set(name.trim(), 'refuse');
          setName('');
        }}
      >
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="client name"
          aria-label="Client name to refuse"
          maxLength={256}
        />
        <button type="submit" disabled={!name.trim()}>
          Refuse this client
        </button>
      </form>
    </section>
  );
}
