import { randomBytes } from 'node:crypto';
import { napiKeyring, type KeyringBackend } from '../../src-main/core/secrets/napi-keyring';

export type KeyringAvailability = { mode: 'ready' } | { mode: 'skip'; reason: string } | { mode: 'missing'; message: string };

/**
 * Keychain tests run against the real OS keychain. On Linux that needs a Secret Service on a D-Bus
 * session, which `bash test/support/with-keyring.sh <command>` provides; without one the tests fail
 * loudly rather than skip, unless OI_TEST_NO_KEYRING=1 says the machine has no keyring on purpose.
 */
export function keyringAvailability(): KeyringAvailability {
  if (process.env.OI_TEST_NO_KEYRING === '1') {
    const reason = 'OI_TEST_NO_KEYRING=1: keychain tests skipped';
    console.warn(reason);
    return { mode: 'skip', reason };
  }
  if (process.platform === 'linux' && !process.env.DBUS_SESSION_BUS_ADDRESS) {
    return {
      mode: 'missing',
      message:
        'No D-Bus session, so no Secret Service to test against. Run the tests under ' +
        '`bash test/support/with-keyring.sh npx vitest run …` (needs the Debian packages dbus, dbus-x11 and ' +
        'gnome-keyring), or set OI_TEST_NO_KEYRING=1 to skip the keychain tests on purpose.',
    };
  }
  return { mode: 'ready' };
}

/** A service name of its own per test file, so tests never see or touch the app's real entries. */
export function testKeyring(): KeyringBackend {
  return napiKeyring(`open-interpreter-desktop-test-${randomBytes(4).toString('hex')}`);
}

/** Removes every entry the test service holds, chunks and probes included. */
export async function emptyKeyring(keyring: KeyringBackend): Promise<void> {
  for (const { account } of await keyring.list()) await keyring.entry(account).deleteCredential();
}
