import type { KeyProvider, Settings } from '@contract';
import type { App } from '../core/app';
import { localRequests } from '../core/bridge/local-requests';
import { keyFor } from '../core/llm/provider-factory';
import { SetupError } from './setup-error';
import type { PromptLine } from './terminal/prompt-line';
import type { Style } from './terminal-style';

const LABELS: Record<KeyProvider, { name: string; variable: string }> = {
  openai: { name: 'OpenAI', variable: 'OPENAI_API_KEY' },
  anthropic: { name: 'Anthropic', variable: 'ANTHROPIC_API_KEY' },
  'openai-compatible': { name: 'OpenAI-compatible', variable: 'OPENAI_COMPATIBLE_API_KEY' },
  openrouter: { name: 'OpenRouter', variable: 'OPENROUTER_API_KEY' },
  groq: { name: 'Groq', variable: 'GROQ_API_KEY' },
  mistral: { name: 'Mistral', variable: 'MISTRAL_API_KEY' },
  deepseek: { name: 'DeepSeek', variable: 'DEEPSEEK_API_KEY' },
};

const ATTEMPTS = 3;

export interface KeyCheckDeps {
  app: App;
  settings: Settings;
  /** The person's terminal, to ask for a missing key; null when nobody can type one. */
  prompt: PromptLine | null;
  style: Style;
  print(line: string): void;
}

/**
 * Before anything is sent: the provider has what it needs. A missing key is asked for in the terminal
 * (hidden), checked against the provider, and stored where the desktop app keeps keys (the keychain);
 * without a terminal the message says which variable to set. Words for a terminal, not the app's
 * Settings screen.
 */
export async function checkProviderKey(deps: KeyCheckDeps): Promise<void> {
  const { app, settings, prompt, style, print } = deps;
  if (settings.provider === 'ollama') return;
  if (settings.provider === 'openai-compatible') {
    if (!settings.baseUrl)
      throw new SetupError("the openai-compatible provider needs the server's URL: pass --base-url http://host:port/v1");
    return; // Local servers rarely need a key; a hosted one that does says so on the first call.
  }
  const provider = settings.provider;
  if (await keyFor(app.context.keys, settings, settings)) return;
  const { name, variable } = LABELS[provider];
  if (!prompt) throw new SetupError(`no ${name} API key: set ${variable}, or run oi in a terminal once to store one in the keychain`);
  const storage = app.context.secretStorage === 'keychain' ? 'the OS keychain' : 'memory for this run only (no keychain answered)';
  print(`No ${name} API key is set (${variable}). Paste one to store it in ${storage}.`);
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const answer = await prompt.ask({ prompt: `${name} API key (hidden): `, hidden: true });
    const key = answer.kind === 'line' ? answer.text.trim() : '';
    if (!key) throw new SetupError(`no ${name} API key given; set ${variable} or run oi again to paste one`);
    const test = await localRequests(app.handlers)('keys.test', { provider, key, baseUrl: settings.baseUrl });
    if (!test.ok && /\b(401|403)\b|refused|invalid|incorrect|unauthori[sz]ed/i.test(test.message)) {
      print(style.red(`${name} refused that key: ${test.message}`));
      continue;
    }
    await localRequests(app.handlers)('keys.set', { provider, key });
    print(
      style.dim(
        test.ok ? `Key checked and stored in ${storage}.` : `Could not check the key (${test.message}); stored in ${storage} anyway.`,
      ),
    );
    return;
  }
  throw new SetupError(`${name} refused ${ATTEMPTS} keys; check the key and run oi again`);
}
