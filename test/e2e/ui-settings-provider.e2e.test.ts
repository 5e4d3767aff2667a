import { describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../src-main/core/secrets/memory-secret-store';
import { expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { shot } from '../support/ui-harness';

describe('Settings → Provider: a key field in place, nothing reset behind the user, never an impossible pair', () => {
  // A user on a local OpenAI-compatible server, with no Anthropic key anywhere.
  const ui = useUiApp(async () => ({
    settingsOnDisk: true,
    secrets: new MemorySecretStore(),
    env: {},
    settings: { provider: 'openai-compatible', model: 'qwen2.5-coder-7b', baseUrl: 'http://127.0.0.1:1234/v1' },
  }));

  it('switches to Anthropic without the first-run window, takes the key inline, switching back restores the server, and a profile made from it is used from the top bar', async () => {
    const { page } = ui;
    // Every text the header shows from here on, to check no impossible pair ever appears.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { headerTexts: string[] }).headerTexts = seen;
      const button = document.querySelector('[data-testid="model-button"]');
      if (!button) throw new Error('no model button');
      seen.push(button.textContent ?? '');
      new MutationObserver(() => seen.push(button.textContent ?? '')).observe(button, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const provider = page.getByRole('combobox', { name: 'Provider' });
    await provider.selectOption('anthropic');

    await expect.poll(() => page.getByRole('textbox', { name: 'Model', exact: true }).inputValue()).toBe('claude-sonnet-4-5');
    expect(await page.getByRole('textbox', { name: 'Base URL' }).inputValue()).toBe('');
    await expectText(page.getByTestId('model-button'), 'Anthropic · claude-sonnet-4-5');
    const keyField = page.getByTestId('provider-key');
    await expectText(keyField, 'Anthropic needs an API key, and none is set.');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await shot(page, 'ui-settings-provider-key.png');

    await keyField.getByLabel('Anthropic API key').fill('sk-ant-settings-inline-4321');
    await keyField.getByRole('button', { name: 'Save key' }).click();
    await expectText(keyField, 'Anthropic key: kept in memory until the app quits · ••••4321');
    expect(await ui.aut.app.context.keyVault.store.get('provider:anthropic')).toBe('sk-ant-settings-inline-4321');
    // Saving the key changed nothing else.
    expect(ui.aut.app.context.settings.get()).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: null });
    expect(await page.getByRole('textbox', { name: 'Model', exact: true }).inputValue()).toBe('claude-sonnet-4-5');
    expect(await page.getByRole('dialog').count()).toBe(0);

    // A model Anthropic does not serve is refused under the field, and nothing changes.
    const model = page.getByRole('textbox', { name: 'Model', exact: true });
    await model.fill('gpt-4.1');
    await model.press('Enter');
    await expectText(page.getByTestId('setting-model').getByRole('alert'), 'gpt-4.1 is not a Claude model');
    expect(ui.aut.app.context.settings.get().model).toBe('claude-sonnet-4-5');

    // Back to the server: its model and address come back as they were.
    await provider.selectOption('openai-compatible');
    await expect.poll(() => page.getByRole('textbox', { name: 'Model', exact: true }).inputValue()).toBe('qwen2.5-coder-7b');
    expect(await page.getByRole('textbox', { name: 'Base URL' }).inputValue()).toBe('http://127.0.0.1:1234/v1');
    await expectText(page.getByTestId('model-button'), 'OpenAI-compatible · qwen2.5-coder-7b');

    const shown = await page.evaluate(() => (window as unknown as { headerTexts: string[] }).headerTexts);
    expect(shown.length).toBeGreaterThan(2);
    for (const text of shown) {
      expect(text).not.toMatch(/Anthropic · (?!claude)/);
      expect(text).not.toMatch(/OpenAI · claude/);
    }

    // Settings → Profiles: a profile from these settings, its model edited, used from the top bar's menu.
    const section = page.getByTestId('profiles-section');
    await section.getByLabel('New profile name').fill('local');
    await section.getByRole('button', { name: 'Save current settings as a profile' }).click();
    const profileModel = section.getByLabel('Model of profile local');
    await expect.poll(() => profileModel.inputValue()).toBe('qwen2.5-coder-7b');
    await profileModel.fill('qwen-profile-9');
    await section.getByTestId('profile-local').getByRole('button', { name: 'Save', exact: true }).click();
    await expectText(section.getByRole('status'), 'Saved profile “local”.');
    await page.getByRole('combobox', { name: 'Profile', exact: true }).selectOption('local');
    await expectText(page.getByTestId('model-button'), 'OpenAI-compatible · qwen-profile-9');
    expect(ui.aut.app.context.settings.get().model).toBe('qwen-profile-9');
  });
});
