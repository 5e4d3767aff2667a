import type { ProviderKind } from './settings';

// Where each provider's API is when settings name no base URL (settings.baseUrl null): the one place
// these are written, for the chat clients, model listing, local-server detection and the UI's hints.
// Base URLs are OpenAI-style, ending in /v1 where the API has it.

export const DEFAULT_BASE_URLS: Readonly<Record<Exclude<ProviderKind, 'openai-compatible'>, string>> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
  ollama: 'http://localhost:11434/v1',
};

/** An OpenAI-compatible server has no default; LM Studio's usual address serves as the example. */
export const EXAMPLE_COMPATIBLE_BASE_URL = 'http://localhost:1234/v1';
