import { QuestionDialog } from '../common/QuestionDialog';

/** What a rewind asks before it changes files: first whether to rewind, then about files edited outside the app. */
export type RewindQuestion = { stage: 'rewind'; cannotRestore: string[] } | { stage: 'changed-outside'; files: string[]; more: number };

/**
 * The rewind's question in the app's own dialog (issue 25 item 9: two plain browser `confirm()`
 * pop-ups could not list paths readably, and looked like a web page's, not the app's). Esc, Cancel or
 * a click outside answers no; the safe answer has the focus, so Enter never rewinds by accident.
 */
export function RewindDialog({ question, onAnswer }: { question: RewindQuestion; onAnswer: (yes: boolean) => void }) {
  const first = question.stage === 'rewind';
  const paths = first ? question.cannotRestore : question.files;
  return (
    <QuestionDialog
      title={first ? 'Rewind the files?' : 'Replace files changed outside the app?'}
      titleId="rewind-title"
      testId="rewind-dialog"
      className="rewind-dialog"
      no={first ? 'Cancel' : 'Keep them'}
      yes={first ? 'Rewind files' : 'Rewind anyway'}
      focusKey={question}
      onAnswer={onAnswer}
    >
      <p>
        {first
          ? 'The workspace’s files go back to how they were just before this cell ran. The rewind is itself checkpointed, so it can be undone.'
          : 'These files were changed outside the app since that cell ran; the rewind would replace them:'}
      </p>
      {first && paths.length > 0 && <p>It cannot put these back:</p>}
      {paths.length > 0 && (
        <ul className="rewind-paths" aria-label={first ? 'Cannot be put back' : 'Changed outside the app'}>
          {paths.slice(0, 20).map((p) => (
            <li key={p}>{p}</li>
          ))}
          {paths.length > 20 && <li>… and {paths.length - 20} more</li>}
          {!first && question.more > 0 && <li>… and {question.more} more</li>}
        </ul>
      )}
    </QuestionDialog>
  );
}
