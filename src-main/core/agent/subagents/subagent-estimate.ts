import type { ModelChoice, Settings } from '@contract';
import { costOf, modelInfo, modelLimits } from '../../llm/model-catalog';

// What a sub-agent may cost, shown before it starts (docs/agent.md#sub-agents). An estimate of the
// most it should spend within its limits, from the model catalog's prices: each of its model calls
// (at most settings.subagentModelCalls) sends the system prompt and the task, plus what earlier calls
// added (a reply and its bounded run result), and gets back a reply.

/** The system prompt with the environment and the tool schema, in tokens (what the app sends today, rounded up). */
export const PROMPT_TOKENS = 3_000;
/** What each call adds to the next one's prompt: the model's code and a run result of about 6,000 characters. */
export const GROWTH_TOKENS = 2_000;
/** A reply: code or an answer. */
export const REPLY_TOKENS = 600;

export interface Estimate {
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** null when the catalog has no price for the model. */
  usd: number | null;
}

export function estimateSubagent(choice: ModelChoice, task: string, settings: Settings): Estimate {
  const calls = settings.subagentModelCalls;
  const limits = modelLimits({ ...settings, ...choice });
  const base = PROMPT_TOKENS + Math.ceil(task.length / 3);
  // The prompt never grows past the window: history is fitted to it.
  let inputTokens = 0;
  for (let i = 0; i < calls; i++) inputTokens += Math.min(base + i * GROWTH_TOKENS, limits.contextWindow);
  const outputTokens = calls * Math.min(REPLY_TOKENS, limits.maxOutputTokens);
  return { modelCalls: calls, inputTokens, outputTokens, usd: costOf(modelInfo(choice.provider, choice.model), inputTokens, outputTokens) };
}

export function formatUsd(usd: number | null): string {
  if (usd === null) return 'price unknown';
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}
