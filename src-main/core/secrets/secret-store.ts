/**
 * The secrets port. Accounts are names like 'provider:openai' or 'kernel:<url>'. Values are read only
 * where a provider client is built; they never cross the bridge towards the renderer.
 */
export interface SecretStore {
  /** 'keychain' when the OS keychain answers; 'memory' when it does not (kept for this run only). */
  readonly kind: 'keychain' | 'memory';
  get(account: string): Promise<string | null>;
  set(account: string, value: string): Promise<void>;
  delete(account: string): Promise<void>;
  /** The accounts that hold a value, so the app can list saved keys and check output for leaks. */
  accounts(): Promise<string[]>;
}

export const providerAccount = (provider: string): string => `provider:${provider}`;

/** Accounts under this prefix hold the store's own bookkeeping (chunks, probes); callers cannot use them. */
export const RESERVED_ACCOUNT_PREFIX = 'oi-internal/';

/** Rejects account names the stores cannot keep apart from their bookkeeping or that a keychain refuses. */
export function checkAccountName(account: string): void {
  if (account.length === 0) throw new Error('A key needs an account name (for example "provider:openai").');
  if (account.length > 256) throw new Error(`The account name "${account.slice(0, 40)}…" is longer than 256 characters.`);
  if (account.startsWith(RESERVED_ACCOUNT_PREFIX)) {
    throw new Error(`The account name "${account}" starts with "${RESERVED_ACCOUNT_PREFIX}", which is reserved.`);
  }
}

/** An empty key is almost always a paste gone wrong; deleting is the explicit way to remove one. */
export function checkSecretValue(account: string, value: string): void {
  if (value.length === 0) throw new Error(`The key for ${account} is empty; delete it instead of saving an empty value.`);
}
