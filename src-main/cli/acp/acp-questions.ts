import type { AgentContext, PermissionOption, PermissionOptionKind, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { CellItem, EventPayload } from '@contract';
import type { CliSession } from '../cli-session';
import { cellContent, titleOf } from './acp-cells';

// The app's questions (run this cell? install these packages? let the code reach this host?) as ACP
// permission requests. The editor shows its own buttons; the answer goes back through the same
// requests the desktop app's cards use, so "always" means what it means there.

const CELL_OPTIONS: PermissionOption[] = [
  { optionId: 'once', name: 'Run', kind: 'allow_once' },
  { optionId: 'always', name: 'Always run in this conversation', kind: 'allow_always' },
  { optionId: 'reject', name: "Don't run", kind: 'reject_once' },
];
const INSTALL_OPTIONS: PermissionOption[] = [
  { optionId: 'install', name: 'Install', kind: 'allow_once' },
  { optionId: 'reject', name: "Don't install", kind: 'reject_once' },
];
const NETWORK_OPTIONS: PermissionOption[] = [
  { optionId: 'conversation', name: 'Allow in this conversation', kind: 'allow_once' },
  { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'deny', name: 'Deny', kind: 'reject_once' },
];

export class AcpQuestions {
  /** Cancels the open requests when the turn is cancelled (the client then answers "cancelled"). */
  private readonly cancel = new AbortController();

  constructor(
    private readonly client: AgentContext,
    private readonly sessionId: string,
    private readonly session: CliSession,
  ) {}

  /** The person's choice among `options`, or null when the request was cancelled or failed. */
  private async ask(toolCall: ToolCallUpdate, options: PermissionOption[]): Promise<PermissionOptionKind | null> {
    try {
      const { outcome } = await this.client.request(
        'session/request_permission',
        { sessionId: this.sessionId, toolCall, options },
        // A client that never answers a cancelled request must not hold the cancelled turn open.
        { cancellationSignal: this.cancel.signal, stopWaitingOnCancel: true },
      );
      if (outcome.outcome !== 'selected') return null;
      return options.find((o) => o.optionId === outcome.optionId)?.kind ?? null;
    } catch {
      return null;
    }
  }

  /** Allow once runs the cell; always runs it and every later cell of the conversation (its auto-run); anything else skips it, and the model is told it was declined. */
  async cell(cell: CellItem): Promise<void> {
    const kind = await this.ask(
      { toolCallId: cell.id, title: titleOf(cell), kind: 'execute', status: 'pending', content: cellContent(cell) },
      CELL_OPTIONS,
    );
    if (kind === 'allow_once' || kind === 'allow_always') await this.session.approve(cell, null, kind === 'allow_always');
    else await this.session.skip(cell);
  }

  async install(question: EventPayload<'install.awaiting-approval'>): Promise<void> {
    const kind = await this.ask(
      {
        toolCallId: `install-${question.questionId}`,
        title: `Install ${question.packages.join(', ')}`,
        kind: 'execute',
        status: 'pending',
        content: [{ type: 'content', content: { type: 'text', text: `${question.text}\n\n$ ${question.command}` } }],
      },
      INSTALL_OPTIONS,
    );
    const { conversationId } = this.session;
    await this.session.call('install.answer', { conversationId, questionId: question.questionId, install: kind === 'allow_once' });
  }

  async network(question: EventPayload<'network.awaiting-approval'>): Promise<void> {
    const kind = await this.ask(
      {
        toolCallId: `network-${question.questionId}`,
        title: `Let the code reach ${question.host}:${question.port}`,
        kind: 'fetch',
        status: 'pending',
      },
      NETWORK_OPTIONS,
    );
    const answer = kind === 'allow_once' ? 'conversation' : kind === 'allow_always' ? 'always' : 'deny';
    await this.session.call('network.answer', { conversationId: this.session.conversationId, questionId: question.questionId, answer });
  }

  cancelAll(): void {
    this.cancel.abort();
  }
}
