import { useState } from 'react';
import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';
import { useInputQuestions } from '../../state/input-questions';

/**
 * "Waiting for input": the running program's prompt and a field for the answer (masked for a
 * password). Enter sends the line, End input sends end-of-input (Ctrl-D at a terminal). A program
 * reading single keys (a full-screen prompt) is better answered by typing into its terminal above.
 * Once a password has gone out, the cell says only "password sent".
 */
export function InputPrompt({ cellId }: { cellId: string }) {
  const question = useInputQuestions((s) => s.byCell[cellId]);
  const passwordSent = useInputQuestions((s) => !!s.passwordSent[cellId]);
  const reportError = useApp((s) => s.reportError);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  if (!question)
    return passwordSent ? (
      <div className="input-sent muted small" data-testid="password-sent">
        password sent
      </div>
    ) : null;

  const send = (answer: { text: string } | { eof: true }) => {
    setSending(true);
    // The field is emptied at once: a password is not kept in the page once it is on its way.
    setText('');
    bridge['cell.input']({ conversationId: question.conversationId, questionId: question.questionId, ...answer })
      .catch((err: unknown) => reportError(err instanceof Error ? err : new Error(String(err))))
      .finally(() => setSending(false));
  };
  const label = question.password ? 'Password' : 'Input';
  return (
    <form
      className="input-prompt"
      role="group"
      aria-label="The program waits for input"
      data-testid="input-prompt"
      onSubmit={(e) => {
        e.preventDefault();
        send({ text });
      }}
    >
      <div className="input-head">
        <strong>waiting for {question.password ? 'a password' : 'input'}</strong>
        {question.command && <span className="muted"> · {question.command}</span>}
      </div>
      {question.prompt.trim() && (
        <pre className="input-question" data-testid="input-question">
          {question.prompt}
        </pre>
      )}
      {question.mode === 'keys' && (
        <p className="muted small">This program reads single keys: click its terminal above and type there, or send a line from here.</p>
      )}
      <div className="approval">
        <input
          className="input-field"
          type={question.password ? 'password' : 'text'}
          aria-label={label}
          placeholder={question.password ? 'password (not shown, not kept)' : 'type a line and press Enter'}
          autoComplete={question.password ? 'new-password' : 'off'}
          spellCheck={false}
          value={text}
          disabled={sending}
          autoFocus
          onChange={(e) => setText(e.target.value)}
        />
        <button className="primary" type="submit" disabled={sending}>
          Send
        </button>
        <button type="button" disabled={sending} onClick={() => send({ eof: true })} title="End of input, as Ctrl-D at a terminal">
          End input
        </button>
      </div>
    </form>
  );
}
