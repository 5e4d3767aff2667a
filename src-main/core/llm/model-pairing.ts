import type { ModelChoice } from '@contract';

/**
 * Why this model cannot be used with this provider, or null. Only what is certain is refused:
 * Anthropic's API serves Claude models alone, and OpenAI's own endpoint serves none of them (with
 * another base URL the OpenAI protocol may reach a proxy that serves anything, so that is allowed).
 */
export function pairingProblem({ provider, model, baseUrl }: ModelChoice): string | null {
  const claude = model.trim().toLowerCase().startsWith('claude');
  if (provider === 'anthropic' && !claude) {
    return `model: ${model} is not a Claude model, and Anthropic serves only Claude models (for example claude-sonnet-4-5)`;
  }
  if (provider === 'openai' && baseUrl === null && claude) {
    return `model: ${model} is a Claude model, which OpenAI does not serve: choose Anthropic as the provider, or an OpenAI model`;
  }
  return null;
}
