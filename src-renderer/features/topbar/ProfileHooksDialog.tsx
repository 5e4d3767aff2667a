import { useEffect, useRef } from 'react';
import './profile-hooks.css';

/** A profile with hooks the person is asked about before the conversation is bound to it. */
export interface ProfileHooksQuestion {
  name: string;
  commands: string[];
}

const SHOWN = 8;

/**
 * Before the Profile menu binds a profile with hooks (docs/agent.md#profiles): its commands run as the
 * person, outside the sandbox, at that conversation's turns, so they are listed and the person says
 * yes first. The app's own dialog rather than the browser's `confirm()`, which looked like a web
 * page's and could not list commands readably. "Cancel" has the focus, so Enter never binds it by
 * accident; Esc or a click outside answers no.
 */
export function ProfileHooksDialog({ question, onAnswer }: { question: ProfileHooksQuestion; onAnswer: (yes: boolean) => void }) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), [question]);
  const { name, commands } = question;
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onAnswer(false)}>
      <div
        className="modal"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="profile-hooks-title"
        data-testid="profile-hooks-dialog"
        onKeyDown={(e) => e.key === 'Escape' && (e.preventDefault(), onAnswer(false))}
      >
        <h1 id="profile-hooks-title">Use profile “{name}”? It has hooks</h1>
        <p>These commands will run as you, outside the sandbox, during this conversation’s turns:</p>
        <ul className="profile-hook-commands" aria-label="Hook commands">
          {commands.slice(0, SHOWN).map((command, i) => (
            <li key={i}>
              <code>{command}</code>
            </li>
          ))}
          {commands.length > SHOWN && <li>… and {commands.length - SHOWN} more</li>}
        </ul>
        <div className="row end">
          <button ref={cancel} onClick={() => onAnswer(false)}>
            Cancel
          </button>
          <button className="primary" onClick={() => onAnswer(true)}>
            Use it and run its hooks
          </button>
        </div>
      </div>
    </div>
  );
}
