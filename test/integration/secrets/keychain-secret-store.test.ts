import { afterAll, describe, expect, it } from 'vitest';
import { EnvSecretSource } from '../../../src-main/core/secrets/env-secret-source';
import { KeychainError, KeychainSecretStore } from '../../../src-main/core/secrets/keychain-secret-store';
import type { KeyringBackend } from '../../../src-main/core/secrets/napi-keyring';
import { openSecretStore } from '../../../src-main/core/secrets/open-secret-store';
import { MANIFEST_PREFIX, parseManifest } from '../../../src-main/core/secrets/secret-chunks';
import { SecretResolver } from '../../../src-main/core/secrets/secret-resolver';
import { emptyKeyring, keyringAvailability, testKeyring } from '../../support/keyring-for-tests';

const keyring = keyringAvailability();
const ACCOUNT = 'provider:openai';
const KEY = 'sk-proj-canary-5d1f0c2a9b7e4c3d8a6f1e2b0c9d8e7f';

if (keyring.mode === 'missing') {
  it('has a Secret Service to test against', () => {
    expect.fail(keyring.message);
  });
}

describe.runIf(keyring.mode === 'ready')('keychain secret store against the real OS keychain', () => {
  const backend = testKeyring();
  afterAll(() => emptyKeyring(backend));

  const rawEntries = async () => (await backend.list()).map((entry) => entry.account).sort();

  it('stores, reads, replaces and deletes a key, in the keychain itself', async () => {
    const store = new KeychainSecretStore(backend);
    expect(await store.get(ACCOUNT)).toBeNull();
    await store.set(ACCOUNT, KEY);
    expect(await store.get(ACCOUNT)).toBe(KEY);
    expect(await backend.entry(ACCOUNT).getPassword()).toBe(KEY);
    await store.set(ACCOUNT, `${KEY}-replaced`);
    expect(await store.get(ACCOUNT)).toBe(`${KEY}-replaced`);
    await store.delete(ACCOUNT);
    expect(await store.get(ACCOUNT)).toBeNull();
    expect(await rawEntries()).toEqual([]);
    await store.delete(ACCOUNT); // deleting what is not there is not an error
  });

  it('keeps keys between store instances, as between runs of the app', async () => {
    await new KeychainSecretStore(backend).set('kernel:http://127.0.0.1:8888', 'token-abc');
    expect(await new KeychainSecretStore(backend).get('kernel:http://127.0.0.1:8888')).toBe('token-abc');
    await new KeychainSecretStore(backend).delete('kernel:http://127.0.0.1:8888');
  });

  it('splits a long value over chunk entries and reassembles it', async () => {
    // 401 units: 9 chunks, 7 of whose ends would cut a surrogate pair (100 cut none, in 33 chunks; each
    // chunk is a few Secret Service calls, with the daemon's CPU and a disk sync each).
    const store = new KeychainSecretStore(backend, { chunkSize: 401 });
    const long = `${KEY}-${'é😀x'.repeat(800)}`; // 3,251 UTF-16 units
    await store.set(ACCOUNT, long);
    const chunks = (await rawEntries()).filter((name) => name.startsWith('oi-internal/chunk/'));
    const manifest = parseManifest((await backend.entry(ACCOUNT).getPassword()) ?? '');
    expect(manifest?.count).toBe(chunks.length);
    expect(chunks.length).toBeGreaterThanOrEqual(Math.ceil(long.length / 401));
    for (const chunk of chunks) expect((await backend.entry(chunk).getPassword())?.length).toBeLessThanOrEqual(401);
    expect(await store.get(ACCOUNT)).toBe(long);
    expect(await new KeychainSecretStore(backend).get(ACCOUNT)).toBe(long); // chunk size only matters when writing

    await store.set(ACCOUNT, KEY); // a short replacement leaves no chunks behind
    expect(await rawEntries()).toEqual([ACCOUNT]);
    await store.set(ACCOUNT, long);
    await store.delete(ACCOUNT);
    expect(await rawEntries()).toEqual([]);
  });

  it('holds a 20 KB value in one entry where the OS sets no limit', async () => {
    const store = new KeychainSecretStore(backend);
    const big = 'k'.repeat(20_000);
    await store.set(ACCOUNT, big);
    expect(await store.get(ACCOUNT)).toBe(big);
    await store.delete(ACCOUNT);
  });

  it('round-trips a value that looks like its own chunk manifest', async () => {
    const store = new KeychainSecretStore(backend);
    const tricky = `${MANIFEST_PREFIX}0123456789abcdef:1:5`;
    await store.set(ACCOUNT, tricky);
    expect(await store.get(ACCOUNT)).toBe(tricky);
    await store.delete(ACCOUNT);
  });

  it('says a key is damaged, naming the account and the fix, when a chunk went missing', async () => {
    const store = new KeychainSecretStore(backend, { chunkSize: 24 });
    await store.set(ACCOUNT, KEY);
    const chunk = (await rawEntries()).find((name) => name.startsWith('oi-internal/chunk/'));
    await backend.entry(chunk ?? '').deleteCredential();
    const error = await store.get(ACCOUNT).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KeychainError);
    expect(String(error)).toMatch(/provider:openai.*damaged.*enter it again/);
    await store.set(ACCOUNT, KEY); // overwriting repairs it
    expect(await store.get(ACCOUNT)).toBe(KEY);
    await store.delete(ACCOUNT);
    expect(await rawEntries()).toEqual([]);
  });

  it('lists saved accounts without its own chunk entries', async () => {
    const store = new KeychainSecretStore(backend, { chunkSize: 24 });
    await store.set(ACCOUNT, KEY);
    await store.set('provider:anthropic', 'sk-ant-short');
    expect((await store.accounts()).sort()).toEqual(['provider:anthropic', ACCOUNT]);
    await store.delete(ACCOUNT);
    await store.delete('provider:anthropic');
  });

  it('opens on the keychain when the probe succeeds, leaving no probe entry behind', async () => {
    const { store, notice } = await openSecretStore({ keyring: backend });
    expect(notice).toBeNull();
    expect(store.kind).toBe('keychain');
    expect(await rawEntries()).toEqual([]);
  });

  it('describes a keychain key by source and last four only', async () => {
    const store = new KeychainSecretStore(backend);
    await store.set(ACCOUNT, KEY);
    const resolver = new SecretResolver(store, new EnvSecretSource({}));
    expect(await resolver.describe(ACCOUNT)).toEqual({ source: 'keychain', last4: KEY.slice(-4) });
    expect(await resolver.allValues()).toEqual([KEY]);
    await store.delete(ACCOUNT);
  });
});

describe('keychain errors', () => {
  it('name the account and never repeat the value, even when the library does', async () => {
    const leaky: KeyringBackend = {
      service: 'test',
      entry: () => ({
        getPassword: async () => null,
        setPassword: async (password: string) => {
          throw new Error(`refused to store "${password}"`);
        },
        deleteCredential: async () => false,
      }),
      list: async () => [],
    };
    const error = await new KeychainSecretStore(leaky).set(ACCOUNT, KEY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KeychainError);
    expect(String(error)).toContain('Could not save the key for provider:openai in the OS keychain');
    expect(String(error)).not.toContain(KEY);
  });

  it('come back as rejected promises for names the store refuses', async () => {
    const unreachable = (): never => {
      throw new Error('the keychain is not reached for a refused name');
    };
    const store = new KeychainSecretStore({ service: 'test', entry: unreachable, list: async () => [] });
    await expect(store.set('oi-internal/probe/x', 'v')).rejects.toThrow(/reserved/);
    await expect(store.set(ACCOUNT, '')).rejects.toThrow(/delete it instead/);
  });
});
