import { QuestionDialog } from '../common/QuestionDialog';
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
  const { name, commands } = question;
  return (
    <QuestionDialog
      title={`Use profile “${name}”? It has hooks`}
      titleId="profile-hooks-title"
      testId="profile-hooks-dialog"
      role="alertdialog"
      no="Cancel"
      yes="Use it and run its hooks"
      focusKey={question}
      onAnswer={onAnswer}
    >
      <p>These commands will run as you, outside the sandbox, during this conversation’s turns:</p>
      <ul className="profile-hook-commands" aria-label="Hook commands">
        {commands.slice(0, SHOWN).map((command, i) => (
          <li key={i}>
            <code>{command}</code>
          </li>
        ))}
        {commands.length > SHOWN && <li>… and {commands.length - SHOWN} more</li>}
      </ul>
    </QuestionDialog>
  );
}
