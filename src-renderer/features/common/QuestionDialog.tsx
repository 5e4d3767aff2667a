import { useEffect, useRef, type ReactNode } from 'react';

/**
 * The frame of the app's yes/no questions (a rewind, auto-run, a profile's hooks): a modal over the
 * window, its title, the body the caller gives, and two buttons. The safe answer has the focus, so
 * Enter never says yes by accident; Esc, a click outside or the safe button answers no. `focusKey`
 * changing (a new question in the same dialog) puts the focus back on the safe answer.
 */
export function QuestionDialog({
  title,
  titleId,
  testId,
  className,
  role = 'dialog',
  describedBy,
  no,
  yes,
  yesDisabled = false,
  focusKey,
  onAnswer,
  children,
}: {
  title: ReactNode;
  titleId: string;
  testId: string;
  className?: string;
  role?: 'dialog' | 'alertdialog';
  describedBy?: string;
  no: string;
  yes: string;
  yesDisabled?: boolean;
  focusKey?: unknown;
  onAnswer(yes: boolean): void;
  children: ReactNode;
}) {
  const safe = useRef<HTMLButtonElement>(null);
  useEffect(() => safe.current?.focus(), [focusKey]);
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onAnswer(false)}>
      <div
        className={className ? `modal ${className}` : 'modal'}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        data-testid={testId}
        onKeyDown={(e) => e.key === 'Escape' && (e.preventDefault(), onAnswer(false))}
      >
        <h1 id={titleId}>{title}</h1>
        {children}
        <div className="row end">
          <button ref={safe} onClick={() => onAnswer(false)}>
            {no}
          </button>
          <button className="primary" disabled={yesDisabled} onClick={() => onAnswer(true)}>
            {yes}
          </button>
        </div>
      </div>
    </div>
  );
}
