import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { KeyringBackend } from '../../src-main/core/secrets/napi-keyring';
import { MemorySecretStore } from '../../src-main/core/secrets/memory-secret-store';
import { openSecretStore } from '../../src-main/core/secrets/open-secret-store';
import { emptyKeyring, keyringAvailability, testKeyring } from '../support/keyring-for-tests';
import { expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { shot } from '../support/ui-harness';

const keyring = keyringAvailability();

/** What the app is told at start when the keychain is out of reach: the real library, a D-Bus session that is not there. */
async function noKeychain(): Promise<{ notice: string; reason: string }> {
  const child = fileURLToPath(new URL('../support/keychain-probe-child.ts', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', child], {
    env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/oi-e2e-bus' },
    timeout: 30_000,
  });
  return JSON.parse(stdout) as { notice: string; reason: string };
}

describe('where keys are kept, said the same way everywhere', () => {
  const ui = useUiApp({}, { start: 'in-test' });

  it.runIf(process.platform === 'linux')(
    'without a keychain: one plain sentence, dismissed once for good, and every key field says memory',
    async () => {
      const { notice, reason } = await noKeychain();
      expect(reason).toContain('/nonexistent/oi-e2e-bus');
      const start = (dataDir?: string) =>
        ui.start({
          settingsOnDisk: true,
          dataDir,
          notices: [notice],
          secrets: new MemorySecretStore(),
          env: {},
          settings: { provider: 'openai', baseUrl: null, model: 'gpt-4.1' },
        });
      await start();
      const { page } = ui;
      const banner = page.getByTestId('notice-banner');
      await expectText(
        banner,
        'No OS keychain is available, so API keys you enter are kept in memory until the app quits: to keep them, install and unlock GNOME Keyring or KeePassXC.',
      );
      // The first-run key field, in front of the banner, says the same thing.
      const firstRun = page.getByRole('dialog', { name: 'Choose a model to start' });
      await expectText(
        firstRun.getByTestId('key-storage'),
        'Kept in memory until the app quits: no OS keychain is available on this machine.',
      );
      const text = await page.locator('body').innerText();
      for (const raw of ['DBus', 'D-Bus', 'nonexistent', 'Platform failure', 'oi-e2e-bus']) expect(text).not.toContain(raw);
      expect(text).not.toContain('stored in the OS keychain');
      await shot(page, 'ui-keychain-notice.png');

      await firstRun.getByRole('button', { name: 'Not now' }).click();
      await page.getByRole('button', { name: 'API keys' }).click();
      await expectText(
        page.getByTestId('keys-screen').getByTestId('key-storage'),
        'Kept in memory until the app quits: no OS keychain is available on this machine.',
      );
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      await expectText(
        page.getByTestId('settings-screen'),
        'API keys are on their own screen (kept in memory until the app quits: no OS keychain is available).',
      );

      await banner.getByRole('button', { name: 'Dismiss the notice' }).click();
      await expect.poll(() => banner.count()).toBe(0);
      await expect.poll(() => ui.aut.app.context.settings.get().dismissedNotices.length).toBe(1);
      await page.reload();
      await page.waitForSelector('body[data-ready="true"]');
      expect(await banner.count()).toBe(0);
      // A restart on the same data folder: main says it again, the window keeps it dismissed.
      const dataDir = ui.aut.dataDir;
      await ui.close({ keepData: true });
      await start(dataDir);
      await ui.page.getByRole('dialog', { name: 'Choose a model to start' }).getByRole('button', { name: 'Not now' }).click();
      await ui.page.getByRole('button', { name: 'API keys' }).click();
      await expectText(ui.page.getByTestId('key-storage'), 'Kept in memory');
      expect(await ui.page.getByTestId('notice-banner').count()).toBe(0);
      await ui.close();
    },
  );

  describe.skipIf(keyring.mode === 'skip')('with the OS keychain', () => {
    let backend: KeyringBackend;
    afterEach(async () => {
      if (backend) await emptyKeyring(backend);
    });

    it('says the key is saved in the OS keychain, and shows no notice', async () => {
      if (keyring.mode === 'missing') throw new Error(keyring.message);
      backend = testKeyring();
      const opened = await openSecretStore({ keyring: backend });
      expect(opened).toMatchObject({ notice: null, reason: null });
      await ui.start({ secrets: opened.store, env: {}, settings: { provider: 'openai', baseUrl: null, model: 'gpt-4.1' } });
      const firstRun = ui.page.getByRole('dialog', { name: 'Choose a model to start' });
      await expectText(firstRun.getByTestId('key-storage'), 'Saved in the OS keychain.');
      expect(await ui.page.getByTestId('notice-banner').count()).toBe(0);
      await firstRun.getByRole('button', { name: 'Not now' }).click();
      await ui.page.getByRole('button', { name: 'API keys' }).click();
      await expectText(ui.page.getByTestId('key-storage'), 'Saved in the OS keychain.');
      await ui.close();
    });
  });
});
