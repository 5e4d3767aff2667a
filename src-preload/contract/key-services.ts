// Hosted services that speak the OpenAI API with a key of their own. Each key is kept under the
// service's own account ('provider:openrouter'…) and sent only to that service's host
// (core/llm/provider-factory.ts), so a key for one is never sent to another endpoint.

export interface KeyService {
  id: 'openrouter' | 'groq' | 'mistral' | 'deepseek';
  label: string;
  baseUrl: string;
  /** What a new user starts with; any model the service lists can be picked later. */
  defaultModel: string;
  keyPage: string;
  envVariable: string;
}

export const KEY_SERVICES: readonly KeyService[] = [
  {
    id: 'openrouter',
    label: 'OpenRouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    defaultModel: 'openai/gpt-4.1',
    keyPage: 'https://openrouter.ai/keys',
    envVariable: 'OPENROUTER_API_KEY',
  },
  {
    id: 'groq',
    label: 'Groq',
    baseUrl: 'https://api.groq.com/openai/v1',
    defaultModel: 'llama-3.3-70b-versatile',
    keyPage: 'https://console.groq.com/keys',
    envVariable: 'GROQ_API_KEY',
  },
  {
    id: 'mistral',
    label: 'Mistral',
    baseUrl: 'https://api.mistral.ai/v1',
    defaultModel: 'mistral-large-latest',
    keyPage: 'https://console.mistral.ai/api-keys',
    envVariable: 'MISTRAL_API_KEY',
  },
  {
    id: 'deepseek',
    label: 'DeepSeek',
    baseUrl: 'https://api.deepseek.com/v1',
    defaultModel: 'deepseek-chat',
    keyPage: 'https://platform.deepseek.com/api_keys',
    envVariable: 'DEEPSEEK_API_KEY',
  },
];

export function keyService(id: string): KeyService | undefined {
  return KEY_SERVICES.find((s) => s.id === id);
}

/** The service a base URL points at, by host; undefined for any other server. */
export function keyServiceAt(baseUrl: string | null): KeyService | undefined {
  if (!baseUrl) return undefined;
  const host = (url: string) => {
    try {
      return new URL(url).host.toLowerCase();
    } catch {
      return '';
    }
  };
  return KEY_SERVICES.find((service) => host(service.baseUrl) === host(baseUrl));
}
