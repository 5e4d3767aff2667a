import type { ProviderKind } from '@contract';

/**
 * Models offered for a key found in the environment before anything is sent: listing the provider's
 * models would send the key, and nothing may leave the machine until the user picks. The picker can
 * load the full list afterwards.
 */
export const SUGGESTED_MODELS: Partial<Record<ProviderKind, string[]>> = {
  openai: ['gpt-4.1', 'gpt-4.1-mini', 'gpt-4o', 'o4-mini'],
  anthropic: ['claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5'],
};
