import type { Conversation, Usage } from '@contract';

/** The last line of `oi --json`: what a script wants without replaying the events. */
export interface ResultEvent {
  name: 'result';
  payload: {
    /** done: the agent finished; declined: it finished but code was not run (no terminal, no -y). */
    status: 'done' | 'failed' | 'declined' | 'interrupted';
    /** turn.end's reason (done, stopped, error, attempts-exhausted, budget…). */
    reason: string;
    exitCode: number;
    conversationId: string;
    /** The agent's last answer in this turn (empty when it gave none). */
    answer: string;
    /** What went wrong, in the app's words, when the turn ended on an error (a refused key, a server that did not answer). */
    error?: string;
    usage: Usage | null;
  };
}

const STATUS: Record<number, ResultEvent['payload']['status']> = { 0: 'done', 3: 'declined', 130: 'interrupted' };

export function resultEvent(
  conv: Conversation | null,
  conversationId: string,
  reason: string,
  exitCode: number,
  error: string | null = null,
): ResultEvent {
  return {
    name: 'result',
    payload: {
      status: STATUS[exitCode] ?? 'failed',
      reason,
      exitCode,
      conversationId,
      answer: conv ? lastAnswer(conv) : '',
      ...(error !== null && exitCode !== 0 ? { error } : {}),
      usage: conv?.usage ?? null,
    },
  };
}

/** The last assistant text after the last user message. */
function lastAnswer(conv: Conversation): string {
  for (let i = conv.items.length - 1; i >= 0; i--) {
    const item = conv.items[i];
    if (!item || item.kind === 'user') break;
    if (item.kind === 'assistant' && item.text.trim()) return item.text;
  }
  return '';
}
