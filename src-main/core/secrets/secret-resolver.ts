import type { EnvSecretSource } from './env-secret-source';
import type { SecretStore } from './secret-store';

/** What the UI may know about a key: where it comes from and its last four characters, never the value. */
export interface SecretDescription {
  source: 'keychain' | 'memory' | 'env' | null;
  last4: string | null;
}

/** Below this length the last four characters would give away too much of the key to show them. */
const MIN_LENGTH_FOR_LAST4 = 12;

/** Answers key lookups from the store first (what the user entered), then the environment. */
export class SecretResolver {
  constructor(
    private readonly store: SecretStore,
    private readonly env: EnvSecretSource,
  ) {}

  async get(account: string): Promise<string | null> {
    return (await this.store.get(account)) ?? this.env.get(account);
  }

  async describe(account: string): Promise<SecretDescription> {
    const stored = await this.store.get(account);
    if (stored !== null) return { source: this.store.kind, last4: lastFour(stored) };
    const fromEnv = this.env.get(account);
    if (fromEnv !== null) return { source: 'env', last4: lastFour(fromEnv) };
    return { source: null, last4: null };
  }

  /**
   * Every key the app can reach with what it is ('openai key', 'Jupyter token'), for redaction and
   * for keeping keys out of the environment of code runs.
   */
  async allSecrets(): Promise<Array<{ value: string; label: string }>> {
    const out = new Map<string, string>();
    for (const account of await this.store.accounts()) {
      const value = await this.store.get(account);
      if (value) out.set(value, secretLabel(account));
    }
    for (const [account, value] of this.env.entries()) if (!out.has(value)) out.set(value, secretLabel(account));
    return [...out].map(([value, label]) => ({ value, label }));
  }

  /** Every key the app can reach, longest first so a redactor replaces a key before any key inside it. */
  async allValues(): Promise<string[]> {
    const values = new Set<string>(this.env.values());
    for (const account of await this.store.accounts()) {
      const value = await this.store.get(account);
      if (value) values.add(value);
    }
    return [...values].sort((a, b) => b.length - a.length);
  }
}

/** What a keychain account holds, in words: provider:openai → 'openai key', kernel:<url> → 'Jupyter token'. */
export function secretLabel(account: string): string {
  if (account.startsWith('provider:')) return `${account.slice('provider:'.length)} key`;
  if (account.startsWith('kernel:')) return 'Jupyter token';
  return 'key';
}

function lastFour(value: string): string | null {
  return value.length >= MIN_LENGTH_FOR_LAST4 ? value.slice(-4) : null;
}
