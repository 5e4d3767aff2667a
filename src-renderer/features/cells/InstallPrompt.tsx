import { useState } from 'react';
import { bridge } from '../../bridge/bridge';
import { CodeLines } from '../highlight/CodeLines';
import { useApp } from '../../state/app-store';
import { useInstallQuestions } from '../../state/install-questions';

/** Asks whether to install a package the cell's code is missing; the command is shown exactly. */
export function InstallPrompt({ cellId }: { cellId: string }) {
  const question = useInstallQuestions((s) => s.byCell[cellId]);
  const reportError = useApp((s) => s.reportError);
  const [sent, setSent] = useState(false);
  if (!question) return null;
  const answer = (install: boolean) => {
    setSent(true);
    bridge['install.answer']({ conversationId: question.conversationId, questionId: question.questionId, install }).catch(
      (err: unknown) => {
        setSent(false);
        reportError(err instanceof Error ? err : new Error(String(err)));
      },
    );
  };
  return (
    <div className="install-prompt" role="group" aria-label="Install a missing package" data-testid="install-prompt">
      <p className="install-reason">{question.reason}</p>
      <p>{question.text}</p>
      <CodeLines className="install-command" testId="install-command" code={question.command} language="" />
      <div className="approval">
        <button className="primary" disabled={sent} onClick={() => answer(true)}>
          Install
        </button>
        <button disabled={sent} onClick={() => answer(false)}>
          Don&apos;t install
        </button>
      </div>
    </div>
  );
}
