import { useState, type ReactNode } from 'react';
import type { KeyProvider, ModelChoice } from '@contract';
import { startWith } from './start-with';

interface Props {
  title: string;
  detail: string;
  testId: string;
  /** What to start with, or null while the form is not filled in enough. */
  choice: ModelChoice | null;
  /** A key typed in the form, saved before starting. */
  keyToSave?: { provider: KeyProvider; value: string };
  children: ReactNode;
}

/** One way in that the user fills in: its fields (children), submitted with Enter or its button; why it failed under it. */
export function ChoiceForm({ title, detail, testId, choice, keyToSave, children }: Props) {
  const [status, setStatus] = useState<string | null>(null);
  return (
    <form
      className="choice"
      aria-label={title}
      data-testid={testId}
      onSubmit={(e) => {
        e.preventDefault();
        if (!choice) return;
        setStatus('Saving…');
        void startWith(choice, keyToSave).then(setStatus);
      }}
    >
      <div className="choice-head">
        <strong>{title}</strong>
        <span className="muted small">{detail}</span>
      </div>
      {children}
      {status && (
        <p className="small field-error" role="alert">
          {status}
        </p>
      )}
    </form>
  );
}
