import { useEffect, useState } from 'react';
import type { McpPromptInfo, McpResourceInfo } from '@contract';
import { plainMessage } from '../../state/plain-error';
import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';
import { useComposer } from '../../state/composer-store';
import { SavedCommandRows } from '../commands/SavedCommandRows';
import { useSavedCommands } from '../commands/saved-commands';
import './mcp.css';

interface Props {
  /** The message box's text: one starting with "/" opens the list of prompts, filtered by what follows. */
  text: string;
  /** A prompt's text, filled in, replaces the message box's text (to edit, then send). */
  onPromptText(text: string): void;
}

let nextKey = 1;

/**
 * The composer's MCP menu (docs/mcp.md): servers' resources to attach to the next message, and their
 * prompts as slash commands (/server:prompt). Shown only when servers are configured — or, for the
 * slash list, when saved commands (docs/agent.md#saved-commands) match what follows the "/".
 */
export function McpComposerMenu({ text, onPromptText }: Props) {
  const configured = useApp((s) => Object.keys(s.settings?.mcpServers ?? {}).length > 0);
  const [open, setOpen] = useState(false);
  const [catalog, setCatalog] = useState<{ resources: McpResourceInfo[]; prompts: McpPromptInfo[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<McpPromptInfo | null>(null);
  const [args, setArgs] = useState<Record<string, string>>({});
  const slash = text.startsWith('/') && !text.includes('\n');
  const saved = useSavedCommands(slash);
  const savedShown = slash && saved.some((c) => c.name.toLowerCase().startsWith(text.slice(1).split(/\s/)[0]?.toLowerCase() ?? ''));
  const shown = open || (slash && (configured || savedShown));

  useEffect(() => {
    if (!configured || !shown || catalog) return;
    bridge['mcp.catalog']({}).then(
      (c) => {
        setCatalog(c);
        setError(c.problems.length ? c.problems.join('; ') : null);
      },
      (err: unknown) => setError(plainMessage(err)),
    );
  }, [configured, shown, catalog]);

  if (!configured && !shown) return null;

  const applyPrompt = async (p: McpPromptInfo, values: Record<string, string>) => {
    try {
      const { text: filled } = await bridge['mcp.prompt-text']({ server: p.server, name: p.name, arguments: values });
      onPromptText(filled);
      setChosen(null);
      setArgs({});
      setOpen(false);
    } catch (err) {
      setError(plainMessage(err));
    }
  };
  const pick = (p: McpPromptInfo) => {
    if (p.arguments.length === 0) return void applyPrompt(p, {});
    setChosen(p);
    setArgs({});
  };
  const filter = slash ? text.slice(1).toLowerCase() : '';
  const prompts = (catalog?.prompts ?? []).filter((p) => `${p.server}:${p.name}`.toLowerCase().includes(filter));

  return (
    <div className="mcp-composer">
      {configured && (
        <button
          className="icon-button"
          aria-label="Resources and prompts of MCP servers"
          aria-expanded={shown}
          title="Attach a resource or use a prompt of an MCP server (or type / for prompts)"
          onClick={() => setOpen(!open)}
        >
          MCP
        </button>
      )}
      {shown && (
        <div className="mcp-composer-menu" role="dialog" aria-label="MCP resources and prompts" data-testid="mcp-composer-menu">
          {error && (
            <p className="field-error small" role="alert">
              {error}
            </p>
          )}
          {configured && !catalog && !error && <p className="muted small">Asking the servers…</p>}
          {chosen ? (
            <form
              className="mcp-prompt-args"
              onSubmit={(e) => {
                e.preventDefault();
                void applyPrompt(chosen, args);
              }}
            >
              <strong>
                /{chosen.server}:{chosen.name}
              </strong>
              {chosen.arguments.map((a) => (
                <label key={a.name} className="field">
                  {a.name}
                  {a.required ? ' (required)' : ''} {a.description && <span className="muted small">{a.description}</span>}
                  <input
                    aria-label={a.name}
                    required={a.required}
                    value={args[a.name] ?? ''}
                    onChange={(e) => setArgs({ ...args, [a.name]: e.target.value })}
                  />
                </label>
              ))}
              <div className="mcp-form-buttons">
                <button type="submit">Use prompt</button>
                <button type="button" onClick={() => setChosen(null)}>
                  Back
                </button>
              </div>
            </form>
          ) : (
            <>
              {slash && <SavedCommandRows commands={saved} text={text} onText={onPromptText} />}
              {prompts.length > 0 && (
                <ul className="mcp-composer-list" aria-label="Prompts">
                  {prompts.map((p) => (
                    <li key={`${p.server}/${p.name}`}>
                      <button onClick={() => pick(p)} title={p.description}>
                        /{p.server}:{p.name}
                      </button>{' '}
                      <span className="muted small">{p.description}</span>
                    </li>
                  ))}
                </ul>
              )}
              {!slash && (catalog?.resources.length ?? 0) > 0 && (
                <ul className="mcp-composer-list" aria-label="Resources">
                  {catalog?.resources.map((r) => (
                    <li key={`${r.server}/${r.uri}`}>
                      <button onClick={() => void attachResource(r).then(() => setOpen(false))} title={r.uri}>
                        Attach {r.name}
                      </button>{' '}
                      <span className="muted small">
                        {r.server} · {r.description}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
        </div>
      )}
    </div>
  );
}

/** Reads the resource into the conversation's attachments/ and shows it as a chip for the next message. */
async function attachResource(r: McpResourceInfo): Promise<void> {
  let conversationId: string;
  try {
    conversationId = await useApp.getState().ensureConversation();
  } catch (err) {
    useApp.getState().reportError(err);
    return;
  }
  const composer = useComposer.getState();
  const key = `mcp-${nextKey++}`;
  composer.addChip({
    key,
    name: r.name,
    size: 0,
    mime: r.mimeType ?? '',
    thumbnail: null,
    state: 'uploading',
    attachment: null,
    error: null,
  });
  try {
    const attachment = await bridge['mcp.attach-resource']({ conversationId, server: r.server, uri: r.uri });
    useComposer.getState().updateChip(key, { state: 'ready', attachment, size: attachment.size, name: attachment.name });
  } catch (err) {
    useComposer.getState().updateChip(key, { state: 'failed', error: plainMessage(err) });
  }
}
