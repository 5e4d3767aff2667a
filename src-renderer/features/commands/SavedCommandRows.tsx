import { useState } from 'react';
import type { SavedCommandInfo } from '@contract';
import { plainMessage } from '../../state/plain-error';
import { slashCommandOf } from '@contract/slash-command';
import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';

interface Props {
  commands: SavedCommandInfo[];
  /** The message box's text ("/rev 42"): filters by the name, and gives the arguments already typed. */
  text: string;
  /** The command's text, filled in, replaces the message box's text (to edit, then send). */
  onText(text: string): void;
}

/**
 * The saved commands in the composer's slash menu, beside MCP prompts: a command that takes arguments
 * asks for them unless they were typed after its name.
 */
export function SavedCommandRows({ commands, text, onText }: Props) {
  const [chosen, setChosen] = useState<SavedCommandInfo | null>(null);
  const [args, setArgs] = useState('');
  const [error, setError] = useState<string | null>(null);
  const typed = slashCommandOf(text);
  const word = (typed?.name ?? text.slice(1)).toLowerCase();
  const shown = commands.filter((c) => c.name.toLowerCase().startsWith(word));

  const apply = async (command: SavedCommandInfo, values: string) => {
    try {
      const conversationId = useApp.getState().current?.conv.id;
      const expanded = await bridge['commands.expand']({
        ...(conversationId ? { conversationId } : {}),
        name: command.name,
        arguments: values,
      });
      if (expanded.text === null) throw new Error(`/${command.name} is no longer a saved command here`);
      onText(expanded.text);
      setChosen(null);
      setArgs('');
    } catch (err) {
      setError(plainMessage(err));
    }
  };
  const pick = (command: SavedCommandInfo) => {
    const inline = typed?.name === command.name ? typed.args : '';
    if (!command.takesArguments || inline.trim()) return void apply(command, inline);
    setChosen(command);
  };

  if (chosen)
    return (
      <form
        className="mcp-prompt-args"
        onSubmit={(e) => {
          e.preventDefault();
          void apply(chosen, args);
        }}
      >
        <strong>/{chosen.name}</strong>
        <label className="field">
          Arguments {chosen.description && <span className="muted small">{chosen.description}</span>}
          <input aria-label="Arguments" placeholder={chosen.argumentHint ?? ''} value={args} onChange={(e) => setArgs(e.target.value)} />
        </label>
        <div className="mcp-form-buttons">
          <button type="submit">Use command</button>
          <button type="button" onClick={() => setChosen(null)}>
            Back
          </button>
        </div>
      </form>
    );
  if (shown.length === 0) return null;
  return (
    <>
      {error && (
        <p className="field-error small" role="alert">
          {error}
        </p>
      )}
      <ul className="mcp-composer-list" aria-label="Saved commands">
        {shown.map((c) => (
          <li key={c.path}>
            <button onClick={() => pick(c)} title={c.path}>
              /{c.name}
            </button>{' '}
            <span className="muted small">
              {c.argumentHint ? `${c.argumentHint} · ` : ''}
              {c.description}
              {c.source === 'workspace' ? ' (workspace)' : ''}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}
