import { providerAccount } from './secret-store';

/**
 * Environment variables that hold provider keys, and the account each one answers for. OpenRouter, Groq,
 * Mistral and DeepSeek are OpenAI-compatible services; their accounts are named for the service so a key
 * for one is never sent to another endpoint.
 */
export const KEY_VARIABLES: Readonly<Record<string, string>> = {
  OPENAI_API_KEY: providerAccount('openai'),
  ANTHROPIC_API_KEY: providerAccount('anthropic'),
  OPENAI_COMPATIBLE_API_KEY: providerAccount('openai-compatible'),
  OPENROUTER_API_KEY: providerAccount('openrouter'),
  GROQ_API_KEY: providerAccount('groq'),
  MISTRAL_API_KEY: providerAccount('mistral'),
  DEEPSEEK_API_KEY: providerAccount('deepseek'),
};

/**
 * Keys from the environment the app was started with. Read-only: the app never writes them back, and the
 * values are copied at construction so later changes to process.env cannot inject or swap a key.
 */
export class EnvSecretSource {
  private readonly byAccount = new Map<string, { variable: string; value: string }>();
  private readonly variableList: string[];

  constructor(env: Readonly<Record<string, string | undefined>> = process.env, variables = KEY_VARIABLES) {
    for (const [variable, account] of Object.entries(variables)) {
      // Shell captures such as $(cat key.txt) keep a newline; whitespace is never part of a key.
      const value = env[variable]?.trim();
      if (value && !this.byAccount.has(account)) this.byAccount.set(account, { variable, value });
    }
    this.variableList = Object.keys(variables);
  }

  get(account: string): string | null {
    return this.byAccount.get(account)?.value ?? null;
  }

  /** The variable a key came from, for the UI to say where it is set ("from OPENAI_API_KEY"). */
  variableFor(account: string): string | null {
    return this.byAccount.get(account)?.variable ?? null;
  }

  /** [account, value] of every key set in the environment. */
  entries(): Array<[string, string]> {
    return [...this.byAccount].map(([account, entry]) => [account, entry.value]);
  }

  values(): string[] {
    return [...this.byAccount.values()].map((entry) => entry.value);
  }

  /** Every variable name this source knows, set or not: removed from the environment of code runs. */
  variableNames(): string[] {
    return [...this.variableList];
  }
}
