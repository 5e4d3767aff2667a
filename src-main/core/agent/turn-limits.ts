import type { Settings } from '@contract';
import type { RetryNotice } from '../llm/retry-with-backoff';
import type { LiveConversation } from './live-conversation';

/**
 * Why the turn must stop before its next model call, or null: the conversation's budget is spent (a
 * sub-agent's spending counts in its parent's conversation, so one budget covers them all), or a
 * sub-agent has made all the model calls it may (settings.subagentModelCalls). `calls`: the model
 * calls this turn made so far.
 */
export function limitReached(live: LiveConversation, settings: Settings, calls: number): string | null {
  const spent = live.subagent ? live.subagent.spentUsd() : live.conv.usage.costUsd;
  if (settings.budgetUsd !== null && spent >= settings.budgetUsd)
    return `This conversation has used $${spent.toFixed(4)} of its $${settings.budgetUsd.toFixed(2)} budget, so the agent stopped before calling the model again. Raise or clear the budget in Settings to go on.`;
  if (live.subagent && calls >= live.subagent.modelCalls)
    return `This sub-agent made the ${live.subagent.modelCalls} model calls a sub-agent may make (Settings: sub-agent model calls), so it stopped.`;
  return null;
}

/** The notice for a model call that is tried again. */
export function retryMessage(n: RetryNotice): string {
  const why =
    n.failure.kind === 'rate-limited'
      ? 'The provider is rate-limiting requests'
      : n.failure.kind === 'server'
        ? `The provider answered with a server error (${n.failure.status})`
        : 'The connection to the provider dropped';
  return `${why}; trying again in ${Math.max(1, Math.round(n.delayMs / 1000))} s (attempt ${n.attempt + 1} of ${n.maxAttempts}).`;
}
