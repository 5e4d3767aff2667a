import { DEFAULT_BASE_URLS, type ProviderKind, type Settings } from '@contract';
import { sameEndpoint, savedBaseUrl } from '../providers/key-destination';
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

/** What the person saved in Settings: where a stored key may go. */
export type SavedDestinations = Pick<Settings, 'provider' | 'baseUrl' | 'providerModels'>;

/**
 * The credential broker for model keys: the stored key a request to `target` may carry, or null. A
 * stored key goes only to its provider's own endpoint or to the base URL the person saved for that
 * provider in Settings (compared as endpoints: scheme, host, port, path; key-destination.ts); a known
 * hosted service's key (OpenRouter, Groq…) only to that service's own host, over HTTPS. A target
 * named by a request — a probe, a conversation's model choice — that is none of these gets no stored
 * key: otherwise any holder of the bridge could name its own server and read every key back.
 */
export async function keyFor(keys: KeySource, target: ProviderTarget, saved: SavedDestinations): Promise<string | null> {
  const own = () => keys.get(providerAccount(target.provider));
  if (!target.baseUrl) return target.provider === 'openai-compatible' ? null : own();
  if (target.provider === 'openai-compatible') {
    const url = safeUrl(target.baseUrl);
    const service = url?.protocol === 'https:' ? SERVICE_ACCOUNTS.find(([pattern]) => pattern.test(url.hostname.toLowerCase())) : undefined;
    const serviceKey = service ? await keys.get(service[1]) : null;
    if (serviceKey) return serviceKey;
  }
  const allowed =
    sameEndpoint(target.baseUrl, savedBaseUrl(target.provider, saved)) ||
    (target.provider !== 'openai-compatible' && sameEndpoint(target.baseUrl, DEFAULT_BASE_URLS[target.provider]));
  return allowed ? own() : null;
}

/**
 * Builds the provider client for a target, with the key the broker (keyFor) allows for it against
 * what is saved now; clients are cached per (provider, endpoint, key) so a turn does not rebuild them
 * on every step.
 */
export function createProviderFactory(keys: KeySource, saved: () => SavedDestinations) {
  const cache = new Map<string, Provider>();
  return async function providerFor(settings: ProviderTarget): Promise<Provider> {
    const key = await keyFor(keys, settings, saved());
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

function safeUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}
