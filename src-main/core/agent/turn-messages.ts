import type { RetryNotice } from '../llm/retry-with-backoff';

// What the turn tells the person in notices, worded once (turn.ts).

export function retryMessage(n: RetryNotice): string {
  const why =
    n.failure.kind === 'rate-limited'
      ? 'The provider is rate-limiting requests'
      : n.failure.kind === 'server'
        ? `The provider answered with a server error (${n.failure.status})`
        : 'The connection to the provider dropped';
  return `${why}; trying again in ${Math.max(1, Math.round(n.delayMs / 1000))} s (attempt ${n.attempt + 1} of ${n.maxAttempts}).`;
}

export function budgetMessage(spent: number, budget: number): string {
  return `This conversation has used $${spent.toFixed(4)} of its $${budget.toFixed(2)} budget, so the agent stopped before calling the model again. Raise or clear the budget in Settings to go on.`;
}
