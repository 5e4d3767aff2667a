import { useEffect, useState } from 'react';
import type { McpApprovalDecision, McpApprovalQuestion } from '@contract';
import { bridge } from '../../bridge/bridge';
import { CodeLines } from '../highlight/CodeLines';
import { useApp } from '../../state/app-store';
import { useMcpApprovals } from '../../state/mcp-approvals';
import './mcp-approval.css';

/**
 * Questions from other agents' clients of `oi mcp` (docs/mcp.md#approval-in-the-desktop-app): the
 * client's name, the language and code (or the file and its content) exactly as they would run, and
 * Allow once / Always allow <client> / Deny — the approval bar of a code cell, for a call that is not
 * in any conversation here. Shown above whatever screen is open, oldest first.
 */
export function McpApprovalCards() {
  const questions = useMcpApprovals((s) => s.questions);
  useEffect(() => {
    // Questions asked before this page was open (or while it reconnected).
    bridge['mcp-approval.pending']({}).then(
      (pending) => useMcpApprovals.getState().loaded(pending),
      () => undefined,
    );
  }, []);
  if (questions.length === 0) return null;
  return (
    <div className="mcp-approvals" role="region" aria-label="Requests from MCP clients">
      {questions.map((q) => (
        <ApprovalCard key={q.id} question={q} />
      ))}
    </div>
  );
}

function ApprovalCard({ question: q }: { question: McpApprovalQuestion }) {
  const reportError = useApp((s) => s.reportError);
  const [sent, setSent] = useState(false);
  const answer = (decision: McpApprovalDecision) => {
    setSent(true);
    bridge['mcp-approval.answer']({ id: q.id, decision }).then(
      async ({ answered }) => {
        // Gone already (oi mcp stopped waiting): the closed event removes it; make sure it goes.
        if (!answered) useMcpApprovals.getState().closed(q.id);
        // Main saved the client as allowed: the page's copy of the settings (Settings → Clients of oi mcp) follows.
        else if (decision === 'always') useApp.setState({ settings: await bridge['settings.get']({}) });
      },
      (err: unknown) => {
        setSent(false);
        reportError(err instanceof Error ? err : new Error(String(err)));
      },
    );
  };
  const what = q.kind === 'execute' ? `run ${q.language ?? ''} code` : `write the file ${q.path ?? ''}`;
  return (
    <section className="mcp-approval" role="group" aria-label={`${q.client} asks to ${what}`} data-testid="mcp-approval">
      <p className="mcp-approval-title">
        <strong>{q.client}</strong>
        {q.clientVersion ? <span className="muted"> {q.clientVersion}</span> : null} asks to {what} through <code>oi mcp</code>
      </p>
      <p className="muted small">In {q.workspace}. The name is the one the client gives; approve only what you expect it to do.</p>
      <CodeLines
        className="mcp-approval-code"
        testId="mcp-approval-code"
        code={(q.kind === 'execute' ? q.code : q.content) ?? ''}
        language={q.kind === 'execute' ? (q.language ?? '') : ''}
      />
      {q.contentOmitted > 0 && <p className="muted small">…and {q.contentOmitted.toLocaleString()} more characters.</p>}
      <div className="approval">
        <button className="primary" disabled={sent} onClick={() => answer('once')}>
          Allow once
        </button>
        <button
          disabled={sent}
          onClick={() => answer('always')}
          title={`Run this and every later call of ${q.client} without asking (Settings → Clients of oi mcp takes it back)`}
        >
          Always allow {q.client}
        </button>
        <button disabled={sent} onClick={() => answer('deny')}>
          Deny
        </button>
      </div>
    </section>
  );
}
