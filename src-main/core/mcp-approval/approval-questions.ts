import { randomUUID } from 'node:crypto';
import type { McpApprovalDecision, McpApprovalQuestion } from '@contract';
import type { EventBus } from '../bridge/event-bus';
import type { SettingsStore } from '../settings/settings-store';
import type { ApprovalAsk } from './approval-wire';

// The desktop app's side of `oi mcp` approvals: a question per call waiting for the person, shown on
// every page the app has open (the event `mcp-approval.asked`), answered once. A client set to allow or
// refuse in settings is answered from there without asking; "Always allow" saves that setting.

export type Verdict = { decision: 'allow' | 'deny'; how: McpApprovalDecision | 'setting' };

interface Waiting {
  question: McpApprovalQuestion;
  settle(decision: McpApprovalDecision): void;
}

export class McpApprovalQuestions {
  private readonly waiting = new Map<string, Waiting>();

  constructor(private readonly deps: { events: EventBus; settings: SettingsStore }) {}

  pending(): McpApprovalQuestion[] {
    return [...this.waiting.values()].map((w) => w.question);
  }

  /** Asks the person (unless settings already answer for this client); withdrawn when `signal` aborts. */
  ask(ask: ApprovalAsk, signal: AbortSignal): Promise<Verdict> {
    const policy = this.deps.settings.get().mcpClients[ask.client] ?? 'ask';
    if (policy === 'allow') return Promise.resolve({ decision: 'allow', how: 'setting' });
    if (policy === 'refuse') return Promise.resolve({ decision: 'deny', how: 'setting' });
    const question: McpApprovalQuestion = { ...ask, id: randomUUID(), askedAt: new Date().toISOString() };
    return new Promise((resolve, reject) => {
      const withdraw = () => {
        if (!this.waiting.delete(question.id)) return;
        this.deps.events.emit('mcp-approval.closed', { id: question.id, how: 'withdrawn' });
        reject(new Error('the question was withdrawn'));
      };
      this.waiting.set(question.id, {
        question,
        settle: (decision) => {
          signal.removeEventListener('abort', withdraw);
          if (decision === 'always') this.allowAlways(ask.client);
          resolve({ decision: decision === 'deny' ? 'deny' : 'allow', how: decision });
        },
      });
      signal.addEventListener('abort', withdraw, { once: true });
      this.deps.events.emit('mcp-approval.asked', question);
      if (signal.aborted) withdraw();
    });
  }

  /** The person's answer; false when the question is already gone. */
  answer(id: string, decision: McpApprovalDecision): boolean {
    const waiting = this.waiting.get(id);
    if (!waiting) return false;
    this.waiting.delete(id);
    waiting.settle(decision);
    this.deps.events.emit('mcp-approval.closed', { id, how: 'answered' });
    return true;
  }

  /** Every question still open is withdrawn (the app is quitting). */
  dispose(): void {
    for (const id of [...this.waiting.keys()]) this.answer(id, 'deny');
  }

  private allowAlways(client: string): void {
    const clients = this.deps.settings.get().mcpClients;
    this.deps.settings.update({ mcpClients: { ...clients, [client]: 'allow' } });
  }
}
