import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSecretStore } from '../../../src-main/core/secrets/open-secret-store';
import type { KeyringBackend } from '../../../src-main/core/secrets/napi-keyring';
import { emptyKeyring, keyringAvailability, testKeyring } from '../../support/keyring-for-tests';
import { SANDBOX, startSandboxTarget, stdoutOf, type SandboxTarget } from './support/sandbox-target';

// Issue 17, finding 8: the Secret Service hands an unlocked keychain's entries to any process of the
// user that asks over the D-Bus session bus — code run without the sandbox included. The app cannot
// stop that (it is how the keychain works), so it says so next to "No sandbox" (sandbox-gaps.ts; the
// UI's confirmation and chip, the CLI's -y warning). This test shows the claim is true, and that the
// sandbox takes the session bus away (its socket is in the private /tmp, under the hidden /run/user,
// or abstract in the network namespace the sandbox does not share).
//
// Run under `bash test/support/with-keyring.sh` (npm test does): a real gnome-keyring on a private bus.

const availability = keyringAvailability();

/**
 * A shell cell running Python with python3-dbus (the system's Python: the first python3 on PATH may
 * lack it) that asks the Secret Service for every entry of `service` and prints their hashes.
 */
function readKeychain(service: string): string {
  return [
    "/usr/bin/python3 - <<'PY'",
    'import hashlib',
    'try:',
    '    import dbus',
    '    bus = dbus.SessionBus()',
    '    secrets = dbus.Interface(bus.get_object("org.freedesktop.secrets", "/org/freedesktop/secrets"), "org.freedesktop.Secret.Service")',
    '    _, session = secrets.OpenSession("plain", dbus.String("", variant_level=1))',
    `    unlocked, _ = secrets.SearchItems({"service": ${JSON.stringify(service)}})`,
    '    for _, (_, _, value, _) in secrets.GetSecrets(unlocked, session).items():',
    '        print("read", hashlib.sha256(bytes(value)).hexdigest())',
    '    print("searched", len(unlocked))',
    'except Exception as e:',
    '    print("no keychain:", type(e).__name__)',
    'PY',
  ].join('\n');
}

describe.skipIf(availability.mode === 'skip')('the keychain over the session bus (issue 17 #8)', () => {
  const canary = `sk-bus-canary-${randomUUID()}`;
  const digest = createHash('sha256').update(canary).digest('hex');
  let keyring: KeyringBackend;
  let service: string;
  let t: SandboxTarget;

  beforeAll(async () => {
    if (availability.mode === 'missing') throw new Error(availability.message);
    keyring = testKeyring();
    service = keyring.service;
    const opened = await openSecretStore({ keyring });
    expect(opened.notice).toBeNull();
    await opened.store.set('provider:openai', canary);
    t = await startSandboxTarget();
  });
  afterAll(async () => {
    await t?.close();
    if (keyring) await emptyKeyring(keyring);
  });

  it('twin: code run without the sandbox reads the stored key (what "No sandbox" warns of)', async () => {
    const out = stdoutOf(await t.run('bus-open', 'shell', readKeychain(service)));
    expect(out, out).toContain(`read ${digest}`);
  });

  it('sandboxed code cannot reach the session bus, so not the keychain', async () => {
    const out = stdoutOf(await t.run('bus-sandboxed', 'shell', readKeychain(service), { sandbox: SANDBOX }));
    expect(out, out).toContain('no keychain: DBusException');
    expect(out).not.toContain(digest);
  });

  it('with the network allowed, only a bus at an abstract address is reachable', async () => {
    const out = stdoutOf(await t.run('bus-sandboxed-net', 'shell', readKeychain(service), { sandbox: { ...SANDBOX, allowNetwork: true } }));
    // A bus at a path (/run/user/<uid>/bus, /tmp/dbus-…) stays hidden; an abstract address lives in
    // the network namespace, which the sandbox shares when the network is allowed (docs/sandbox.md).
    const abstract = (process.env.DBUS_SESSION_BUS_ADDRESS ?? '').includes('abstract=');
    expect(out.includes(`read ${digest}`), out).toBe(abstract);
  });
});
