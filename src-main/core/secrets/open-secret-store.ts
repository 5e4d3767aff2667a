import { randomBytes } from 'node:crypto';
import { KeychainSecretStore, type KeychainSecretStoreOptions } from './keychain-secret-store';
import { MemorySecretStore } from './memory-secret-store';
import type { KeyringBackend } from './napi-keyring';
import { RESERVED_ACCOUNT_PREFIX, type SecretStore } from './secret-store';
import { errorMessage } from '@contract';

export interface OpenSecretStoreOptions extends KeychainSecretStoreOptions {
  /** Default: the OS keychain through @napi-rs/keyring. */
  keyring?: KeyringBackend;
  /**
   * How long the probe may take. Generous because the OS may be showing an unlock or "allow access"
   * prompt; after it the app runs with keys in memory rather than hanging at startup.
   */
  probeTimeoutMs?: number;
}

export interface OpenedSecretStore {
  store: SecretStore;
  /** Set when the keychain could not be used: one plain sentence for the user (no library error in it). */
  notice: string | null;
  /** Why the keychain could not be used, as the library said it (D-Bus errors…): for the log, not the window. */
  reason: string | null;
}

const DEFAULT_PROBE_TIMEOUT_MS = 30_000;

/**
 * The keychain store when a probe entry can be written, read back and deleted; otherwise an in-memory
 * store and a notice. Never a file: a key that cannot go into the keychain is not written anywhere.
 */
export async function openSecretStore(options: OpenSecretStoreOptions = {}): Promise<OpenedSecretStore> {
  const timeoutMs = options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  let keyring: KeyringBackend;
  try {
    // Loaded here so a native module that fails to load (an unsupported platform) becomes the notice
    // below instead of an import error at startup.
    keyring = options.keyring ?? (await import('./napi-keyring')).napiKeyring();
    await withTimeout(probe(keyring), timeoutMs);
  } catch (error) {
    return { store: new MemorySecretStore(), notice: NO_KEYCHAIN_NOTICE, reason: reasonOf(error) };
  }
  return { store: new KeychainSecretStore(keyring, { chunkSize: options.chunkSize }), notice: null, reason: null };
}

async function probe(keyring: KeyringBackend): Promise<void> {
  const entry = keyring.entry(`${RESERVED_ACCOUNT_PREFIX}probe/${randomBytes(6).toString('hex')}`);
  const token = randomBytes(12).toString('hex');
  await entry.setPassword(token);
  try {
    const readBack = await entry.getPassword();
    if (readBack !== token) throw new Error('a value written to it read back differently');
  } finally {
    await entry.deleteCredential();
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`it did not answer within ${Math.round(ms / 1000)} s`)), ms);
    timer.unref?.();
    work.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error: unknown) => (clearTimeout(timer), reject(error)),
    );
  });
}

/**
 * What the user is told when there is no keychain: where keys go instead, and what would keep them. The
 * library's own error (a D-Bus message) goes to the log through `reason`, not into this sentence.
 */
export const NO_KEYCHAIN_NOTICE =
  'No OS keychain is available, so API keys you enter are kept in memory until the app quits' +
  (process.platform === 'linux' ? ': to keep them, install and unlock GNOME Keyring or KeePassXC.' : '.');

function reasonOf(error: unknown): string {
  const raw = errorMessage(error);
  return (raw.split('\n')[0] ?? '').trim().slice(0, 300) || 'no reason given';
}
