import { DEFAULT_BASE_URLS, type ProviderKind, type Settings } from '@contract';
import { providerAccount } from '../secrets/secret-store';
import { AnthropicProvider } from './anthropic-provider';
import { OllamaProvider } from './ollama-provider';
import { OpenAiProvider } from './openai-provider';
import type { Provider } from './provider';

export interface KeySource {
  get(account: string): Promise<string | null>;
}

/** OpenAI-compatible services whose key lives under its own account (see env-secret-source.ts). */
const SERVICE_ACCOUNTS: Array<[host: RegExp, account: string]> = [
  [/(^|\.)openrouter\.ai$/, providerAccount('openrouter')],
  [/(^|\.)groq\.com$/, providerAccount('groq')],
  [/(^|\.)mistral\.ai$/, providerAccount('mistral')],
  [/(^|\.)deepseek\.com$/, providerAccount('deepseek')],
];

export type ProviderTarget = Pick<Settings, 'provider' | 'baseUrl'> & Partial<Pick<Settings, 'ollamaKeepAlive'>>;

/**
 * The key for a provider: for a known OpenAI-compatible service, the service's own account first (so
 * a key saved for one's own server is not what goes to OpenRouter when both are set), then the
 * provider's account.
 */
export async function keyFor(keys: KeySource, target: ProviderTarget): Promise<string | null> {
  const own = () => keys.get(providerAccount(target.provider));
  if (target.provider !== 'openai-compatible' || !target.baseUrl) return own();
  const host = safeHost(target.baseUrl);
  const service = SERVICE_ACCOUNTS.find(([pattern]) => pattern.test(host));
  return (service ? await keys.get(service[1]) : null) ?? own();
}

/**
 * Builds the provider client for the current settings. This is the only place keys are read; clients
 * are cached per (provider, endpoint, key) so a turn does not rebuild them on every step.
 */
export function createProviderFactory(keys: KeySource) {
  const cache = new Map<string, Provider>();
  return async function providerFor(settings: ProviderTarget): Promise<Provider> {
    const key = await keyFor(keys, settings);
    const cacheKey = JSON.stringify([settings.provider, settings.baseUrl, key, settings.ollamaKeepAlive]);
    const cached = cache.get(cacheKey);
    if (cached) return cached;
    const provider = buildProvider(settings, key);
    cache.clear(); // one live client at a time: keys that were replaced do not linger in memory
    cache.set(cacheKey, provider);
    return provider;
  };
}

/** A client for one provider and endpoint; errors say which key or setting is missing. */
export function buildProvider(target: ProviderTarget, key: string | null): Provider {
  const kind: ProviderKind = target.provider;
  switch (kind) {
    case 'openai':
      if (!key) throw new Error('no OpenAI API key: add one in Settings → API keys, or set OPENAI_API_KEY');
      return new OpenAiProvider({ kind, apiKey: key, baseUrl: target.baseUrl });
    case 'anthropic':
      if (!key) throw new Error('no Anthropic API key: add one in Settings → API keys, or set ANTHROPIC_API_KEY');
      return new AnthropicProvider({ apiKey: key, baseUrl: target.baseUrl });
    case 'ollama':
      // Its native API, not the OpenAI-compatible one, so the context window can be set (ollama-provider.ts).
      return new OllamaProvider({ baseUrl: target.baseUrl ?? DEFAULT_BASE_URLS.ollama, keepAlive: target.ollamaKeepAlive ?? '30m' });
    case 'openai-compatible':
      if (!target.baseUrl) throw new Error('the OpenAI-compatible provider needs a base URL (Settings → Provider, or --base-url)');
      return new OpenAiProvider({ kind, apiKey: key ?? 'not-needed', baseUrl: target.baseUrl });
  }
}

function safeHost(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}
