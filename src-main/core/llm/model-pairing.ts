import type { ModelChoice } from '@contract';

/** Anthropic's own API, which serves Claude models alone (any other address may be a gateway). */
const ANTHROPIC_HOST = 'api.anthropic.com';

/** Whether the base URL names no other server than the provider's own (none saved, or its host). */
function officialEndpoint(baseUrl: string | null, host: string): boolean {
  if (baseUrl === null) return true;
  try {
    return new URL(baseUrl).hostname.toLowerCase() === host;
  } catch {
    return false;
  }
}

/**
 * Why this model cannot be used with this provider, or null. Only what is certain is refused:
 * Anthropic's own API serves Claude models alone, and OpenAI's own endpoint serves none of them. With
 * another base URL either protocol may reach a gateway or proxy (LiteLLM, a company gateway, an alias
 * such as `sonnet` or `bedrock/…`) that serves whatever names it likes, so any name is allowed there.
 */
export function pairingProblem({ provider, model, baseUrl }: ModelChoice): string | null {
  const claude = model.trim().toLowerCase().startsWith('claude');
  if (provider === 'anthropic' && !claude && officialEndpoint(baseUrl, ANTHROPIC_HOST)) {
    return `model: ${model} is not a Claude model, and Anthropic's API serves only Claude models (for example claude-sonnet-4-5); a gateway's model names need its base URL`;
  }
  if (provider === 'openai' && baseUrl === null && claude) {
    return `model: ${model} is a Claude model, which OpenAI does not serve: choose Anthropic as the provider, or an OpenAI model`;
  }
  return null;
}
