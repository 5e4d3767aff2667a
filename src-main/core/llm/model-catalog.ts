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

// Public list prices (USD per million tokens, standard tier) and limits. Longest matching prefix wins,
// so 'gpt-4o-mini' beats 'gpt-4o', and dated names ('gpt-4o-2024-08-06') match their family.
const CATALOG: Entry[] = [
  ['gpt-5', { contextWindow: 400_000, maxOutputTokens: 128_000, inputPerMTok: 1.25, outputPerMTok: 10, vision: true, encoding: o200k }],
  ['gpt-5-mini', { contextWindow: 400_000, maxOutputTokens: 128_000, inputPerMTok: 0.25, outputPerMTok: 2, vision: true, encoding: o200k }],
  [
    'gpt-5-nano',
    { contextWindow: 400_000, maxOutputTokens: 128_000, inputPerMTok: 0.05, outputPerMTok: 0.4, vision: true, encoding: o200k },
  ],
  ['gpt-4.1', { contextWindow: 1_047_576, maxOutputTokens: 32_768, inputPerMTok: 2, outputPerMTok: 8, vision: true, encoding: o200k }],
  [
    'gpt-4.1-mini',
    { contextWindow: 1_047_576, maxOutputTokens: 32_768, inputPerMTok: 0.4, outputPerMTok: 1.6, vision: true, encoding: o200k },
  ],
  [
    'gpt-4.1-nano',
    { contextWindow: 1_047_576, maxOutputTokens: 32_768, inputPerMTok: 0.1, outputPerMTok: 0.4, vision: true, encoding: o200k },
  ],
  ['gpt-4o', { contextWindow: 128_000, maxOutputTokens: 16_384, inputPerMTok: 2.5, outputPerMTok: 10, vision: true, encoding: o200k }],
  [
    'gpt-4o-mini',
    { contextWindow: 128_000, maxOutputTokens: 16_384, inputPerMTok: 0.15, outputPerMTok: 0.6, vision: true, encoding: o200k },
  ],
  ['gpt-4-turbo', { contextWindow: 128_000, maxOutputTokens: 4_096, inputPerMTok: 10, outputPerMTok: 30, vision: true, encoding: cl100k }],
  ['gpt-4', { contextWindow: 8_192, maxOutputTokens: 8_192, inputPerMTok: 30, outputPerMTok: 60, vision: false, encoding: cl100k }],
  [
    'gpt-3.5-turbo',
    { contextWindow: 16_385, maxOutputTokens: 4_096, inputPerMTok: 0.5, outputPerMTok: 1.5, vision: false, encoding: cl100k },
  ],
  ['o1', { contextWindow: 200_000, maxOutputTokens: 100_000, inputPerMTok: 15, outputPerMTok: 60, vision: true, encoding: o200k }],
  ['o3', { contextWindow: 200_000, maxOutputTokens: 100_000, inputPerMTok: 2, outputPerMTok: 8, vision: true, encoding: o200k }],
  ['o3-mini', { contextWindow: 200_000, maxOutputTokens: 100_000, inputPerMTok: 1.1, outputPerMTok: 4.4, vision: false, encoding: o200k }],
  ['o4-mini', { contextWindow: 200_000, maxOutputTokens: 100_000, inputPerMTok: 1.1, outputPerMTok: 4.4, vision: true, encoding: o200k }],
  // Newer Claude models share the 200k window; their prices are not in this table, so cost is not counted.
  ['claude-', { contextWindow: 200_000, maxOutputTokens: 32_000, inputPerMTok: null, outputPerMTok: null, vision: true, encoding: null }],
  [
    'claude-opus-4-5',
    { contextWindow: 200_000, maxOutputTokens: 64_000, inputPerMTok: 5, outputPerMTok: 25, vision: true, encoding: null },
  ],
  ['claude-opus-4', { contextWindow: 200_000, maxOutputTokens: 32_000, inputPerMTok: 15, outputPerMTok: 75, vision: true, encoding: null }],
  [
    'claude-sonnet-4',
    { contextWindow: 200_000, maxOutputTokens: 64_000, inputPerMTok: 3, outputPerMTok: 15, vision: true, encoding: null },
  ],
  ['claude-haiku-4', { contextWindow: 200_000, maxOutputTokens: 64_000, inputPerMTok: 1, outputPerMTok: 5, vision: true, encoding: null }],
  [
    'claude-3-7-sonnet',
    { contextWindow: 200_000, maxOutputTokens: 64_000, inputPerMTok: 3, outputPerMTok: 15, vision: true, encoding: null },
  ],
  [
    'claude-3-5-sonnet',
    { contextWindow: 200_000, maxOutputTokens: 8_192, inputPerMTok: 3, outputPerMTok: 15, vision: true, encoding: null },
  ],
  [
    'claude-3-5-haiku',
    { contextWindow: 200_000, maxOutputTokens: 8_192, inputPerMTok: 0.8, outputPerMTok: 4, vision: false, encoding: null },
  ],
  [
    'claude-3-haiku',
    { contextWindow: 200_000, maxOutputTokens: 4_096, inputPerMTok: 0.25, outputPerMTok: 1.25, vision: true, encoding: null },
  ],
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
