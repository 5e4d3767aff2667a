import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { KeyringBackend } from '../../src-main/core/secrets/napi-keyring';
import { openSecretStore } from '../../src-main/core/secrets/open-secret-store';
import { emptyKeyring, keyringAvailability, testKeyring } from '../support/keyring-for-tests';
import { expectAttribute, expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { shot } from '../support/ui-harness';

const keyring = keyringAvailability();

describe('settings and API keys screens', () => {
  // Each test starts the app its own way.
  const ui = useUiApp({}, { start: 'in-test' });

  const field = (p: Page, id: string) => p.getByTestId(`setting-${id}`);

  it('validates, applies at once, and keeps settings across a restart of the server', async () => {
    await ui.start({ settingsOnDisk: true });
    const { page } = ui;
    await page.getByRole('button', { name: 'Settings' }).click();
    const temperature = page.getByRole('textbox', { name: 'Temperature' });

    await temperature.fill('5');
    await temperature.press('Enter');
    await expectText(field(page, 'temperature').getByRole('alert'), /2/);
    expect(ui.aut.app.context.settings.get().temperature).toBeNull();

    await temperature.fill('0.4');
    await temperature.press('Enter');
    await expect.poll(() => ui.aut.app.context.settings.get().temperature).toBe(0.4);
    expect(await field(page, 'temperature').getByRole('alert').count()).toBe(0);
    const timeout = page.getByRole('textbox', { name: 'Run timeout' });
    await timeout.fill('45');
    await timeout.press('Tab');
    await expect.poll(() => ui.aut.app.context.settings.get().exec.timeoutMs).toBe(45_000);
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
    // Applied without a restart: the page is dark now.
    await expectAttribute(page.locator('html'), 'data-theme', 'dark');
    await page.getByRole('switch', { name: 'Run code in a sandbox' }).check();
    await expectText(page.getByTestId('sandbox-state'), 'Sandbox on');
    await page.getByRole('textbox', { name: 'Custom instructions' }).fill('Answer in French.');
    await page.getByRole('textbox', { name: 'Custom instructions' }).blur();
    await expect.poll(() => ui.aut.app.context.settings.get().customInstructions).toBe('Answer in French.');
    await shot(page, 'ui-settings.png');

    const onDisk = JSON.parse(readFileSync(path.join(ui.aut.dataDir, 'settings.json'), 'utf8')) as {
      temperature: number;
      theme: string;
      exec: { timeoutMs: number };
    };
    expect(onDisk).toMatchObject({ temperature: 0.4, theme: 'dark', exec: { timeoutMs: 45_000 } });

    // Restart: a new server and app on the same data folder; the page reconnects through its new URL.
    const dataDir = ui.aut.dataDir;
    await ui.close({ keepData: true });
    await ui.start({ settingsOnDisk: true, dataDir });
    const restarted = ui.page;
    await restarted.getByRole('button', { name: 'Settings' }).click();
    await expect.poll(() => restarted.getByRole('textbox', { name: 'Temperature' }).inputValue()).toBe('0.4');
    expect(await restarted.getByRole('textbox', { name: 'Run timeout' }).inputValue()).toBe('45');
    expect(await restarted.getByRole('combobox', { name: 'Theme' }).inputValue()).toBe('dark');
    expect(await restarted.getByRole('textbox', { name: 'Custom instructions' }).inputValue()).toBe('Answer in French.');
    await expectAttribute(restarted.locator('html'), 'data-theme', 'dark');
  });

  describe.skipIf(keyring.mode === 'skip')('with the OS keychain', () => {
    let backend: KeyringBackend;
    afterEach(async () => {
      if (backend) await emptyKeyring(backend);
    });

    it('adds, tests, replaces and removes a key in the real keychain; the renderer never receives it', async () => {
      if (keyring.mode === 'missing') throw new Error(keyring.message);
      backend = testKeyring();
      const opened = await openSecretStore({ keyring: backend });
      expect(opened.store.kind).toBe('keychain');
      const envKey = `sk-ant-env-${randomBytes(8).toString('hex')}-ENV9`;
      await ui.start({ secrets: opened.store, env: { ANTHROPIC_API_KEY: envKey } });
      const { page: p, frames } = ui;

      // No OpenAI key yet, so first run offers choices; the user goes to the keys screen instead.
      await p.getByRole('dialog', { name: 'Choose a model to start' }).getByRole('button', { name: 'Not now' }).click();
      await p.getByRole('button', { name: 'API keys' }).click();
      const openai = p.getByTestId('key-openai');
      const anthropic = p.getByTestId('key-anthropic');
      await expectText(openai.getByTestId('key-status'), 'Not set');
      await expectText(anthropic.getByTestId('key-status'), 'From the environment variable ANTHROPIC_API_KEY · ••••••••ENV9');

      const first = `sk-canary-${randomBytes(12).toString('hex')}-AB12`;
      await openai.getByRole('button', { name: 'Add key' }).click();
      await openai.getByLabel('OpenAI API key').fill(first);
      await openai.getByRole('button', { name: 'Save' }).click();
      await expectText(openai.getByTestId('key-status'), 'Saved in the OS keychain · ••••••••AB12');
      expect(await backend.entry('provider:openai').getPassword()).toBe(first);

      await openai.getByRole('button', { name: 'Test' }).click();
      await expectText(openai.getByTestId('key-result'), 'The key works: 1 model (scripted-model)');
      const listing = ui.aut.llm.requests.find((r) => r.path === '/v1/models');
      expect(listing?.headers.authorization).toBe(`Bearer ${first}`);
      await shot(p, 'ui-keys.png');

      const second = `sk-canary-${randomBytes(12).toString('hex')}-CD34`;
      await openai.getByRole('button', { name: 'Replace' }).click();
      await openai.getByLabel('OpenAI API key').fill(second);
      await openai.getByLabel('OpenAI API key').press('Enter');
      await expectText(openai.getByTestId('key-status'), '••••••••CD34');
      expect(await backend.entry('provider:openai').getPassword()).toBe(second);

      await openai.getByRole('button', { name: 'Remove the OpenAI key' }).click();
      await expectText(openai.getByTestId('key-status'), 'Not set');
      expect(await backend.entry('provider:openai').getPassword()).toBeFalsy();

      // Nothing the renderer received — responses or events — holds any of the keys, or their bodies
      // without the last four characters that are shown on purpose.
      expect(frames.length).toBeGreaterThan(5);
      const received = frames.join('\n');
      for (const key of [first, second, envKey]) {
        expect(received).not.toContain(key);
        expect(received).not.toContain(key.slice(0, -4));
      }
      expect(await p.content()).not.toContain(first.slice(0, -4));
    });
  });
});
