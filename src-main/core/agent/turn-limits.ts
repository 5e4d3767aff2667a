import type { Settings } from '@contract';
import type { LiveConversation } from './live-conversation';
import { budgetMessage } from './turn-messages';

/**
 * Why the turn must stop before its next model call, or null: the conversation's budget is spent (a
 * sub-agent's spending counts in its parent's conversation, so one budget covers them all), or a
 * sub-agent has made all the model calls it may (settings.subagentModelCalls). `calls`: the model
 * calls this turn made so far.
 */
export function limitReached(live: LiveConversation, settings: Settings, calls: number): string | null {
  const spent = live.subagent ? live.subagent.spentUsd() : live.conv.usage.costUsd;
  if (settings.budgetUsd !== null && spent >= settings.budgetUsd) return budgetMessage(spent, settings.budgetUsd);
  if (live.subagent && calls >= live.subagent.modelCalls)
    return `This sub-agent made the ${live.subagent.modelCalls} model calls a sub-agent may make (Settings: sub-agent model calls), so it stopped.`;
  return null;
}
