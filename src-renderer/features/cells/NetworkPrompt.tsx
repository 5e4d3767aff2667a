import { useState } from 'react';
import type { RequestInput } from '@contract';
import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';
import { useNetworkQuestions } from '../../state/network-questions';

type Answer = RequestInput<'network.answer'>['answer'];

/**
 * Asks whether the cell's sandboxed code may reach a host the sandbox does not let through by itself
 * (not a package registry, not in the allowed hosts). The code waits on the connection meanwhile.
 */
export function NetworkPrompt({ cellId }: { cellId: string }) {
  const question = useNetworkQuestions((s) => s.byCell[cellId]);
  const reportError = useApp((s) => s.reportError);
  const [sent, setSent] = useState(false);
  if (!question) return null;
  const answer = (choice: Answer) => {
    setSent(true);
    bridge['network.answer']({ conversationId: question.conversationId, questionId: question.questionId, answer: choice }).catch(
      (err: unknown) => {
        setSent(false);
        reportError(err instanceof Error ? err : new Error(String(err)));
      },
    );
  };
  return (
    <div className="install-prompt network-prompt" role="group" aria-label="Allow a network connection" data-testid="network-prompt">
      <p>
        The code wants to connect to <code className="network-host">{`${question.host}:${question.port}`}</code>. The sandbox lets it reach
        only the package registries and the hosts you allow.
      </p>
      <div className="approval">
        <button className="primary" disabled={sent} onClick={() => answer('conversation')}>
          Allow in this conversation
        </button>
        <button disabled={sent} onClick={() => answer('always')}>
          Always allow {question.host}
        </button>
        <button disabled={sent} onClick={() => answer('deny')}>
          Deny
        </button>
      </div>
    </div>
  );
}
