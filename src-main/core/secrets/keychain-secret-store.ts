import { randomBytes } from 'node:crypto';
import type { KeyringBackend } from './napi-keyring';
import {
  chunkAccounts,
  defaultChunkSize,
  encodeManifest,
  needsChunking,
  parseManifest,
  splitIntoChunks,
  type ChunkManifest,
} from './secret-chunks';
import { checkAccountName, checkSecretValue, RESERVED_ACCOUNT_PREFIX, type SecretStore } from './secret-store';
import { errorMessage } from '@contract';

export interface KeychainSecretStoreOptions {
  /** UTF-16 code units per keychain entry; longer values are chunked. Default: 1,200 on Windows, no limit elsewhere. */
  chunkSize?: number;
}

/** Raised when the keychain refuses an operation; the message names the account and never the value. */
export class KeychainError extends Error {
  override readonly name = 'KeychainError';
}

/** One keychain entry per account (plus chunk entries for long values), filed under the backend's service. */
export class KeychainSecretStore implements SecretStore {
  readonly kind = 'keychain' as const;
  private readonly chunkSize: number;
  // Keychain calls are rare and slow; running them one at a time keeps a replace of a chunked value from
  // interleaving with a read or another replace.
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly keyring: KeyringBackend,
    options: KeychainSecretStoreOptions = {},
  ) {
    this.chunkSize = options.chunkSize ?? defaultChunkSize(process.platform);
    if (this.chunkSize !== Number.POSITIVE_INFINITY && !(Number.isInteger(this.chunkSize) && this.chunkSize >= 2)) {
      throw new RangeError(`chunkSize must be an integer of at least 2 (got ${this.chunkSize})`);
    }
  }

  get(account: string): Promise<string | null> {
    return this.serially(() => this.read(account));
  }

  async set(account: string, value: string): Promise<void> {
    checkAccountName(account);
    checkSecretValue(account, value);
    return this.serially(() => this.write(account, value));
  }

  delete(account: string): Promise<void> {
    return this.serially(() => this.remove(account));
  }

  accounts(): Promise<string[]> {
    return this.serially(async () => {
      const entries = await this.call(`list the keys saved under "${this.keyring.service}"`, () => this.keyring.list());
      const names = entries.map((e) => e.account).filter((name) => !name.startsWith(RESERVED_ACCOUNT_PREFIX));
      return [...new Set(names)];
    });
  }

  private async read(account: string): Promise<string | null> {
    const head = await this.call(`read the key for ${account}`, () => this.keyring.entry(account).getPassword());
    if (head === null) return null;
    const manifest = this.manifestOf(account, head);
    if (!manifest) return head;
    const chunks: string[] = [];
    for (const [index, name] of chunkAccounts(account, manifest).entries()) {
      const chunk = await this.call(`read the key for ${account}`, () => this.keyring.entry(name).getPassword());
      if (chunk === null) throw this.damaged(account, `part ${index + 1} of ${manifest.count} is missing`);
      chunks.push(chunk);
    }
    const value = chunks.join('');
    if (value.length !== manifest.length) throw this.damaged(account, 'its parts do not add up to the saved length');
    return value;
  }

  private async write(account: string, value: string): Promise<void> {
    const previous = await this.previousManifest(account);
    const action = `save the key for ${account}`;
    if (needsChunking(value, this.chunkSize)) {
      // With no size limit a value is chunked only for looking like a manifest, and then one chunk holds it.
      const chunks = splitIntoChunks(value, Number.isFinite(this.chunkSize) ? this.chunkSize : value.length);
      const manifest: ChunkManifest = { generation: randomBytes(8).toString('hex'), count: chunks.length, length: value.length };
      const names = chunkAccounts(account, manifest);
      for (const [index, name] of names.entries()) {
        const chunk = chunks[index] ?? '';
        await this.call(action, () => this.keyring.entry(name).setPassword(chunk), [value, chunk]);
      }
      await this.call(action, () => this.keyring.entry(account).setPassword(encodeManifest(manifest)), [value]);
    } else {
      await this.call(action, () => this.keyring.entry(account).setPassword(value), [value]);
    }
    if (previous) await this.removeChunks(account, previous);
  }

  private async remove(account: string): Promise<void> {
    const previous = await this.previousManifest(account);
    // The head goes first: once it is gone no reader can reach the chunks, even if removing them fails.
    await this.call(`delete the key for ${account}`, () => this.keyring.entry(account).deleteCredential());
    if (previous) await this.removeChunks(account, previous);
  }

  /** The manifest the account points at now, if any; a damaged head is simply overwritten. */
  private async previousManifest(account: string): Promise<ChunkManifest | null> {
    const head = await this.call(`read the key for ${account}`, () => this.keyring.entry(account).getPassword());
    if (head === null) return null;
    try {
      return parseManifest(head);
    } catch {
      return null;
    }
  }

  private async removeChunks(account: string, manifest: ChunkManifest): Promise<void> {
    for (const name of chunkAccounts(account, manifest)) {
      await this.call(`delete the key for ${account}`, () => this.keyring.entry(name).deleteCredential());
    }
  }

  private manifestOf(account: string, head: string): ChunkManifest | null {
    try {
      return parseManifest(head);
    } catch {
      throw this.damaged(account, 'its manifest entry is malformed');
    }
  }

  private damaged(account: string, why: string): KeychainError {
    return new KeychainError(`The key for ${account} in the OS keychain is damaged (${why}); enter it again in Settings → API keys.`);
  }

  /** Runs a keychain call, naming the action in any error and scrubbing the value from the library's message. */
  private async call<T>(action: string, run: () => Promise<T>, secrets: string[] = []): Promise<T> {
    try {
      return await run();
    } catch (error) {
      let reason = errorMessage(error);
      for (const secret of secrets) if (secret) reason = reason.split(secret).join('[redacted]');
      // No `cause`: the original error may quote the value, and causes end up in logs.
      throw new KeychainError(`Could not ${action} in the OS keychain: ${reason}`);
    }
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task, task);
    this.queue = result.catch(() => undefined);
    return result;
  }
}
