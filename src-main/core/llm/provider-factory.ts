import type { Settings } from '@contract';
import { providerAccount } from '../secrets/secret-store';
import { OpenAiProvider } from './openai-provider';
import type { Provider } from './provider';

export interface KeySource {
  get(account: string): Promise<string | null>;
}

const OLLAMA_DEFAULT = 'http://localhost:11434/v1';

/**
 * Builds the provider client for the current settings. This is the only place keys are read; clients
 * are cached per (provider, endpoint, key) so a turn does not rebuild them on every step.
 */
export function createProviderFactory(keys: KeySource) {
  const cache = new Map<string, Provider>();
  return async function providerFor(settings: Settings): Promise<Provider> {
    const key = await keys.get(providerAccount(settings.provider));
    const cacheKey = JSON.stringify([settings.provider, settings.baseUrl, key]);
    const cached = cache.get(cacheKey);
    if (cached) return cached;
    const provider = build(settings, key);
    cache.clear(); // one live client at a time: keys that were replaced do not linger in memory
    cache.set(cacheKey, provider);
    return provider;
  };
}

function build(settings: Settings, key: string | null): Provider {
  switch (settings.provider) {
    case 'openai':
      if (!key) throw new Error('no OpenAI API key: add one in Settings → API keys, or set OPENAI_API_KEY');
      return new OpenAiProvider({ apiKey: key, baseUrl: settings.baseUrl, name: 'openai' });
    case 'ollama':
      // Local servers ignore the key, but the SDK insists on one.
      return new OpenAiProvider({ apiKey: key ?? 'ollama', baseUrl: settings.baseUrl ?? OLLAMA_DEFAULT, name: 'ollama' });
    case 'openai-compatible':
      if (!settings.baseUrl) throw new Error('the OpenAI-compatible provider needs a base URL in Settings');
      return new OpenAiProvider({ apiKey: key ?? 'not-needed', baseUrl: settings.baseUrl, name: 'openai-compatible' });
    case 'anthropic':
      throw new Error('the Anthropic provider is not available yet in this build');
  }
}
