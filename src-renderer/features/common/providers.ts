import type { ProviderKind } from '@contract';

export const PROVIDERS: ProviderKind[] = ['openai', 'anthropic', 'ollama', 'openai-compatible'];

export const PROVIDER_LABEL: Record<ProviderKind, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  ollama: 'Ollama',
  'openai-compatible': 'OpenAI-compatible',
};

/** Where to get a key, shown when none is set. */
export const KEY_PAGES: Partial<Record<ProviderKind, string>> = {
  openai: 'https://platform.openai.com/api-keys',
  anthropic: 'https://console.anthropic.com/settings/keys',
};

export const DEFAULT_MODEL: Partial<Record<ProviderKind, string>> = {
  openai: 'gpt-4.1',
  anthropic: 'claude-sonnet-4-5',
};
