import { checkAccountName, checkSecretValue, type SecretStore } from './secret-store';

/** Secrets held for this run only: the fallback when no OS keychain is reachable, and tests. */
export class MemorySecretStore implements SecretStore {
  readonly kind = 'memory' as const;
  private readonly values = new Map<string, string>();

  async get(account: string): Promise<string | null> {
    return this.values.get(account) ?? null;
  }

  async set(account: string, value: string): Promise<void> {
    checkAccountName(account);
    checkSecretValue(account, value);
    this.values.set(account, value);
  }

  async delete(account: string): Promise<void> {
    this.values.delete(account);
  }

  async accounts(): Promise<string[]> {
    return [...this.values.keys()];
  }
}
