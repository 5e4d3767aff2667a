import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { KeyringBackend, KeyringEntry } from '../../../src-main/core/secrets/napi-keyring';
import { NO_KEYCHAIN_NOTICE, openSecretStore } from '../../../src-main/core/secrets/open-secret-store';

// One plain sentence for the window; the library's own words go to the log.
const NOTICE = /^No OS keychain is available, so API keys you enter are kept in memory until the app quits[.:]/;

function backendWith(entry: () => KeyringEntry): KeyringBackend {
  return { service: 'test', entry, list: async () => [] };
}

describe('opening the secret store when no keychain answers', () => {
  it.runIf(process.platform === 'linux')(
    'falls back to memory with a notice when the D-Bus session is gone (real library, child process)',
    async () => {
      const child = fileURLToPath(new URL('../../support/keychain-probe-child.ts', import.meta.url));
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', child], {
        env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/oi-test-bus' },
        timeout: 30_000,
      });
      const result = JSON.parse(stdout) as { kind: string; notice: string; reason: string; readBack: string };
      expect(result.kind).toBe('memory');
      expect(result.notice).toBe(NO_KEYCHAIN_NOTICE);
      expect(result.notice).toMatch(NOTICE);
      expect(result.notice).not.toMatch(/D-?Bus|nonexistent/i);
      expect(result.reason).toContain('/nonexistent/oi-test-bus');
      expect(result.readBack).toBe('sk-child-test-key');
    },
  );

  it('falls back to memory when the keychain refuses the probe', async () => {
    const { store, notice, reason } = await openSecretStore({
      keyring: backendWith(() => {
        throw new Error('Platform failure: DBus error: org.freedesktop.DBus.Error.ServiceUnknown');
      }),
    });
    expect(store.kind).toBe('memory');
    expect(notice).toMatch(NOTICE);
    expect(notice).not.toContain('ServiceUnknown');
    expect(reason).toContain('ServiceUnknown');
  });

  it('falls back to memory when the keychain does not answer in time', async () => {
    const never = new Promise<never>(() => {});
    const { store, reason } = await openSecretStore({
      probeTimeoutMs: 50,
      keyring: backendWith(() => ({ setPassword: () => never, getPassword: () => never, deleteCredential: () => never })),
    });
    expect(store.kind).toBe('memory');
    expect(reason).toMatch(/did not answer within/);
  });

  it('falls back to memory when the keychain reads back something else', async () => {
    const { store, reason } = await openSecretStore({
      keyring: backendWith(() => ({
        setPassword: async () => {},
        getPassword: async () => 'not what was written',
        deleteCredential: async () => true,
      })),
    });
    expect(store.kind).toBe('memory');
    expect(reason).toMatch(/read back differently/);
  });
});
