import { AsyncEntry, findCredentialsAsync } from '@napi-rs/keyring';

/** The keychain service every entry of the app is filed under. */
export const KEYCHAIN_SERVICE = 'open-interpreter-desktop';

/** One keychain entry, as @napi-rs/keyring's AsyncEntry offers it. */
export interface KeyringEntry {
  getPassword(): Promise<string | null>;
  setPassword(password: string): Promise<void>;
  /** true when an entry was removed, false when there was none. */
  deleteCredential(): Promise<boolean>;
}

/** The keychain as the secret store sees it; injectable so tests can simulate an unreachable one. */
export interface KeyringBackend {
  readonly service: string;
  entry(account: string): KeyringEntry;
  /** Every entry filed under the service. */
  list(): Promise<Array<{ account: string; password: string }>>;
}

/**
 * The OS keychain through @napi-rs/keyring. On Linux the Secret Service is required explicitly: the
 * library would otherwise fall back to the kernel keyring, which forgets everything at logout, and the
 * app would claim keys are saved when they are not.
 */
export function napiKeyring(service: string = KEYCHAIN_SERVICE): KeyringBackend {
  const options = process.platform === 'linux' ? { linux: { store: 'secret-service' as const } } : undefined;
  return {
    service,
    entry: (account) => new AsyncEntry(service, account, options),
    list: () => findCredentialsAsync(service),
  };
}
