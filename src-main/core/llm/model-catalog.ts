import { MIN_THINKING_BUDGET_TOKENS, type ProviderKind, type Settings } from '@contract';

/** What the app needs to know about a model to fit its context and price its use. */
export interface ModelInfo {
  contextWindow: number;
  maxOutputTokens: number;
  /** USD per million tokens; null when unknown (local models cost nothing; unknown remote ones are not guessed). */
  inputPerMTok: number | null;
  outputPerMTok: number | null;
  vision: boolean;
  /** Tokenizer for exact counts (OpenAI family); null → estimate from characters. */
  encoding: 'o200k_base' | 'cl100k_base' | null;
}

type Entry = [prefix: string, info: ModelInfo];

const o200k = 'o200k_base' as const;
const cl100k = 'cl100k_base' as const;

/** One catalog row, its columns in ModelInfo's order. */
function row(
  prefix: string,
  contextWindow: number,
  maxOutputTokens: number,
  inputPerMTok: number | null,
  outputPerMTok: number | null,
  vision: boolean,
  encoding: ModelInfo['encoding'],
): Entry {
  return [prefix, { contextWindow, maxOutputTokens, inputPerMTok, outputPerMTok, vision, encoding }];
}

// Public list prices (USD per million tokens, standard tier) and limits. Longest matching prefix wins,
// so 'gpt-4o-mini' beats 'gpt-4o', and dated names ('gpt-4o-2024-08-06') match their family.
// Columns: prefix, context window, max output tokens, input and output USD per million tokens, vision, encoding.
const CATALOG: Entry[] = [
  row('gpt-5', 400_000, 128_000, 1.25, 10, true, o200k),
  row('gpt-5-mini', 400_000, 128_000, 0.25, 2, true, o200k),
  row('gpt-5-nano', 400_000, 128_000, 0.05, 0.4, true, o200k),
  row('gpt-4.1', 1_047_576, 32_768, 2, 8, true, o200k),
  row('gpt-4.1-mini', 1_047_576, 32_768, 0.4, 1.6, true, o200k),
  row('gpt-4.1-nano', 1_047_576, 32_768, 0.1, 0.4, true, o200k),
  row('gpt-4o', 128_000, 16_384, 2.5, 10, true, o200k),
  row('gpt-4o-mini', 128_000, 16_384, 0.15, 0.6, true, o200k),
  row('gpt-4-turbo', 128_000, 4_096, 10, 30, true, cl100k),
  row('gpt-4', 8_192, 8_192, 30, 60, false, cl100k),
  row('gpt-3.5-turbo', 16_385, 4_096, 0.5, 1.5, false, cl100k),
  row('o1', 200_000, 100_000, 15, 60, true, o200k),
  row('o3', 200_000, 100_000, 2, 8, true, o200k),
  row('o3-mini', 200_000, 100_000, 1.1, 4.4, false, o200k),
  row('o4-mini', 200_000, 100_000, 1.1, 4.4, true, o200k),
  // Newer Claude models share the 200k window; their prices are not in this table, so cost is not counted.
  row('claude-', 200_000, 32_000, null, null, true, null),
  row('claude-opus-4-5', 200_000, 64_000, 5, 25, true, null),
  row('claude-opus-4', 200_000, 32_000, 15, 75, true, null),
  row('claude-sonnet-4', 200_000, 64_000, 3, 15, true, null),
  row('claude-haiku-4', 200_000, 64_000, 1, 5, true, null),
  row('claude-3-7-sonnet', 200_000, 64_000, 3, 15, true, null),
  row('claude-3-5-sonnet', 200_000, 8_192, 3, 15, true, null),
  row('claude-3-5-haiku', 200_000, 8_192, 0.8, 4, false, null),
  row('claude-3-haiku', 200_000, 4_096, 0.25, 1.25, true, null),
];

/** Unknown hosted models: a window most current models exceed, and no price (cost shows as unknown). */
const UNKNOWN_REMOTE: ModelInfo = {
  contextWindow: 32_768,
  maxOutputTokens: 4_096,
  inputPerMTok: null,
  outputPerMTok: null,
  vision: true,
  encoding: null,
};
/** Local models run with Ollama's default window unless the user raises it (Settings → context window). */
const UNKNOWN_LOCAL: ModelInfo = {
  contextWindow: 8_192,
  maxOutputTokens: 2_048,
  inputPerMTok: 0,
  outputPerMTok: 0,
  vision: true,
  encoding: null,
};

/** The most output the app reserves by default: big reservations would crowd out history for nothing. */
const DEFAULT_OUTPUT_CAP = 8_192;

/** Limits and prices for a model; provider-prefixed names ('openai/gpt-4o' on OpenRouter) match too. */
export function modelInfo(provider: ProviderKind, model: string): ModelInfo {
  const name = model.toLowerCase().split('/').at(-1) ?? model.toLowerCase();
  let best: Entry | null = null;
  for (const entry of CATALOG) {
    if (name.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  if (best) {
    // Known names served locally (an Ollama mirror, a proxy) are not billed by us.
    return provider === 'ollama' ? { ...best[1], inputPerMTok: 0, outputPerMTok: 0 } : best[1];
  }
  return provider === 'ollama' ? UNKNOWN_LOCAL : UNKNOWN_REMOTE;
}

export interface ModelLimits {
  contextWindow: number;
  /** Output tokens reserved in the window and requested from the model. */
  maxOutputTokens: number;
  /** True when the user set the output limit (OpenAI-family requests then send it). */
  maxOutputTokensSet: boolean;
}

/**
 * The catalog's limits, overridden by the user's settings where set. With Anthropic thinking on, the
 * output reserve grows by the thinking budget (thinking counts towards max_tokens and the window),
 * up to what the model can produce.
 */
export function modelLimits(settings: Settings): ModelLimits {
  const info = modelInfo(settings.provider, settings.model);
  const contextWindow = settings.contextWindow ?? info.contextWindow;
  const answer = settings.maxOutputTokens ?? Math.min(info.maxOutputTokens, DEFAULT_OUTPUT_CAP, Math.floor(contextWindow / 4));
  const budget = thinkingBudget(settings);
  const maxOutputTokens = budget === null ? answer : Math.min(outputCeiling(settings), budget + answer);
  return { contextWindow, maxOutputTokens, maxOutputTokensSet: settings.maxOutputTokens !== null };
}

/** The most output one call may ask for: the user's max output when set, else the model's limit. */
export function outputCeiling(settings: Settings): number {
  return settings.maxOutputTokens ?? modelInfo(settings.provider, settings.model).maxOutputTokens;
}

/** Claude models from before extended thinking (3.7): the API refuses a thinking request from them. */
const NO_THINKING = /^claude-(instant|2|3-(opus|sonnet|haiku)|3-5-)/;

/** Whether a request for extended thinking may be sent to this Claude model (unknown names: yes). */
export function canThink(model: string): boolean {
  return !NO_THINKING.test(model.trim().toLowerCase());
}

/**
 * The thinking budget to send, or null when thinking is off or the provider is not Anthropic's. A
 * budget the settings check would refuse (a file edited by hand, `oi --model` for this run) is
 * lowered below the ceiling rather than sent to be refused; below Anthropic's minimum it is dropped.
 */
export function thinkingBudget(settings: Settings): number | null {
  if (settings.provider !== 'anthropic' || settings.thinkingBudgetTokens === null) return null;
  if (!canThink(settings.model)) return null;
  const budget = Math.min(settings.thinkingBudgetTokens, outputCeiling(settings) - 1);
  return budget >= MIN_THINKING_BUDGET_TOKENS ? budget : null;
}

/**
 * Why the thinking budget cannot be used with these settings, naming the field, or null when it can.
 * Anthropic wants budget_tokens below max_tokens, and max_tokens within the model's output limit.
 */
export function thinkingBudgetProblem(settings: Settings): string | null {
  const budget = settings.thinkingBudgetTokens;
  if (budget === null || settings.provider !== 'anthropic' || !canThink(settings.model)) return null;
  const ceiling = outputCeiling(settings);
  if (budget < ceiling) return null;
  const limit =
    settings.maxOutputTokens !== null
      ? `Max output (maxOutputTokens = ${ceiling})`
      : `the output limit of ${settings.model} (${ceiling} tokens)`;
  return `thinkingBudgetTokens: the thinking budget (${budget} tokens) must be less than ${limit}; lower the budget or turn thinking off`;
}

/** USD for one call; null when the model's price is unknown. */
export function costOf(info: ModelInfo, inputTokens: number, outputTokens: number): number | null {
  if (info.inputPerMTok === null || info.outputPerMTok === null) return null;
  return (inputTokens * info.inputPerMTok + outputTokens * info.outputPerMTok) / 1_000_000;
}
