import type { KeyProvider, ProviderKind } from '@contract';
import { KEY_SERVICES } from '@contract/key-services';

export const PROVIDERS: ProviderKind[] = ['openai', 'anthropic', 'ollama', 'openai-compatible'];

export const PROVIDER_LABEL: Record<ProviderKind, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  ollama: 'Ollama',
  'openai-compatible': 'OpenAI-compatible',
};

/** Whose key a key row or field is for: a provider, or a hosted OpenAI-compatible service. */
export const KEY_LABEL: Record<KeyProvider, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  'openai-compatible': 'OpenAI-compatible server',
  ...(Object.fromEntries(KEY_SERVICES.map((s) => [s.id, s.label])) as Record<(typeof KEY_SERVICES)[number]['id'], string>),
};

/** Where to get a key, shown when none is set. */
export const KEY_PAGES: Partial<Record<KeyProvider, string>> = {
  openai: 'https://platform.openai.com/api-keys',
  anthropic: 'https://console.anthropic.com/settings/keys',
  ...Object.fromEntries(KEY_SERVICES.map((s) => [s.id, s.keyPage])),
};

export const DEFAULT_MODEL: Partial<Record<ProviderKind, string>> = {
  openai: 'gpt-4.1',
  anthropic: 'claude-sonnet-4-5',
};

/** "an OpenAI key", "a Groq key". */
export function aKeyFor(provider: KeyProvider): string {
  return `${/^[AEIOU]/.test(KEY_LABEL[provider]) ? 'an' : 'a'} ${KEY_LABEL[provider]} key`;
}
