import type { Settings } from '@contract';
import type { EventBus } from '../bridge/event-bus';
import { modelInfo } from '../llm/model-catalog';
import type { LiveConversation } from './live-conversation';
import { addNotice } from './turn-notices';
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

/** Says once per conversation that the budget cannot count a model whose price the app's table lacks. */
export function noteUnpricedModel(live: LiveConversation, events: EventBus, settings: Settings): void {
  if (settings.budgetUsd === null || live.priceWarned || modelInfo(settings.provider, settings.model).inputPerMTok !== null) return;
  live.priceWarned = true;
  addNotice(
    live,
    events,
    'warning',
    `The price of ${settings.model} is not in the app's table, so its use is not counted against the $${settings.budgetUsd.toFixed(2)} budget.`,
  );
}
