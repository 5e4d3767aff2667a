import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../src-main/core/secrets/memory-secret-store';
import { expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { sendMessage, type OpenAiBody, shot } from '../support/ui-harness';
import { closedPort } from '../support/closed-port';

/**
 * What the user does on the first-run screen, counted: typing into a field is an entry, a click on a
 * button is a confirm. The screen must stay the one screen until the confirm that starts the chat.
 */
class Actions {
  readonly log: Array<{ kind: 'type' | 'confirm'; what: string }> = [];
  constructor(private readonly page: Page) {}
  async type(field: Locator, what: string, text: string): Promise<void> {
    await field.fill(text);
    this.log.push({ kind: 'type', what });
  }
  async confirm(button: Locator, what: string): Promise<void> {
    await button.click();
    this.log.push({ kind: 'confirm', what });
  }
  /** Dialogs open now: the first-run screen must be the only one, every time it is checked. */
  dialogs(): Promise<string[]> {
    return this.page
      .getByRole('dialog')
      .evaluateAll((els) => els.map((el) => el.getAttribute('aria-labelledby') ?? el.getAttribute('aria-label') ?? '?'));
  }
}

describe('first run: every way in on one screen', () => {
  // A new user: an empty data folder, settings on disk (none yet), no key saved, none in the environment.
  const ui = useUiApp(() => ({
    settingsOnDisk: true,
    settings: { provider: 'openai', baseUrl: null, model: 'gpt-4.1' },
    secrets: new MemorySecretStore(),
    env: {},
  }));

  const dialog = () => ui.page.getByRole('dialog', { name: 'Choose a model to start' });

  it('goes from an empty data folder to a finished turn against an OpenAI-compatible server: one screen, one confirm', async () => {
    const actions = new Actions(ui.page);
    await expectText(dialog(), 'No API key in the environment');
    expect(await actions.dialogs()).toEqual(['first-run-title']);
    const server = dialog().getByRole('form', { name: 'A local or OpenAI-compatible server' });
    await actions.type(server.getByRole('textbox', { name: 'Server base URL' }), 'base URL', ui.aut.llm.openaiBaseUrl);
    // Its models are listed as soon as the address is typed, and the first is chosen.
    await expectText(server.getByTestId('server-status'), '1 model found.');
    expect(await server.getByRole('combobox', { name: 'Server model' }).inputValue()).toBe('scripted-model');
    expect(await actions.dialogs()).toEqual(['first-run-title']);
    await shot(ui.page, 'ui-onboarding-server.png');
    await actions.confirm(server.getByRole('button', { name: 'Start' }), 'Start');

    await expect.poll(() => dialog().count()).toBe(0);
    expect(actions.log.filter((a) => a.kind === 'confirm')).toEqual([{ kind: 'confirm', what: 'Start' }]);
    expect(actions.log).toHaveLength(2);
    // The chat is ready: the cursor is in the message box, the header names the server's model.
    await expect.poll(() => ui.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Message');
    await expectText(ui.page.getByTestId('model-button'), 'OpenAI-compatible · scripted-model');
    const onDisk = JSON.parse(readFileSync(path.join(ui.aut.dataDir, 'settings.json'), 'utf8')) as {
      provider: string;
      model: string;
      baseUrl: string;
    };
    expect(onDisk).toMatchObject({ provider: 'openai-compatible', model: 'scripted-model', baseUrl: ui.aut.llm.openaiBaseUrl });

    ui.aut.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_1', name: 'execute', arguments: { language: 'python', code: 'print(6 * 7)' } }] },
      { kind: 'text', text: 'The answer is 42.' },
    );
    await sendMessage(ui.page, 'What is six times seven? Use Python.');
    await ui.page.getByRole('group', { name: 'Approve this code' }).getByRole('button', { name: 'Run', exact: true }).click();
    await expectText(ui.page.getByTestId('assistant-message').last(), 'The answer is 42.', 30_000);
    await expect.poll(async () => (await ui.aut.app.handlers['conversation.list']({}, { transport: 'websocket' })).length).toBe(1);
    const [conv] = await ui.aut.app.handlers['conversation.list']({}, { transport: 'websocket' });
    await ui.aut.app.context.agent.idle(conv?.id ?? '');
    const chats = ui.aut.llm.requests.filter((r) => r.path === '/v1/chat/completions');
    expect(chats.map((r) => (r.body as OpenAiBody).model)).toEqual(['scripted-model', 'scripted-model']);
    expect(JSON.stringify((chats[1]?.body as OpenAiBody).messages)).toContain('42');
    await shot(ui.page, 'ui-onboarding-first-turn.png');
  });

  it('starts with an API key in one step, for Anthropic and for an OpenAI-compatible service such as OpenRouter', async () => {
    const keyForm = dialog().getByRole('form', { name: 'Use an API key' });
    await keyForm.getByRole('combobox', { name: 'Provider for the key' }).selectOption('anthropic');
    expect(await keyForm.getByRole('textbox', { name: 'Model for the key' }).inputValue()).toBe('claude-sonnet-4-5');
    await keyForm.getByLabel('API key').fill('sk-ant-onboarding-test-9876');
    await expectText(
      keyForm.getByTestId('key-storage'),
      'Kept in memory until the app quits: no OS keychain is available on this machine.',
    );
    await shot(ui.page, 'ui-onboarding-key.png');
    await keyForm.getByRole('button', { name: 'Save key and start' }).click();
    await expect.poll(() => dialog().count()).toBe(0);
    await expectText(ui.page.getByTestId('model-button'), 'Anthropic · claude-sonnet-4-5');
    expect(await ui.aut.app.context.keyVault.store.get('provider:anthropic')).toBe('sk-ant-onboarding-test-9876');
    expect(ui.aut.app.context.settings.get()).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: null });
    // Nothing was sent to any provider to get here.
    expect(ui.aut.llm.requests).toEqual([]);

    // "Set up a provider…" brings the same screen back; OpenRouter's key goes under its own name.
    await ui.page.getByTestId('model-button').click();
    await ui.page.getByRole('button', { name: 'Set up a provider…' }).click();
    await keyForm.getByRole('combobox', { name: 'Provider for the key' }).selectOption('openrouter');
    expect(await keyForm.getByRole('textbox', { name: 'Model for the key' }).inputValue()).toBe('openai/gpt-4.1');
    await keyForm.getByLabel('API key').fill('sk-or-onboarding-test-5555');
    await keyForm.getByLabel('API key').press('Enter');
    await expect.poll(() => dialog().count()).toBe(0);
    expect(await ui.aut.app.context.keyVault.store.get('provider:openrouter')).toBe('sk-or-onboarding-test-5555');
    expect(ui.aut.app.context.settings.get()).toMatchObject({
      provider: 'openai-compatible',
      model: 'openai/gpt-4.1',
      baseUrl: 'https://openrouter.ai/api/v1',
    });
    expect(await ui.aut.app.handlers['providers.status']({}, { transport: 'websocket' })).toEqual({ ready: true, reason: null });
  });

  it('says why a server gave no models: its URL, and that it is the network, not a key', async () => {
    const port = await closedPort();
    const server = dialog().getByRole('form', { name: 'A local or OpenAI-compatible server' });
    await server.getByRole('textbox', { name: 'Server base URL' }).fill(`http://127.0.0.1:${port}/v1`);
    await expectText(
      server.getByTestId('server-status'),
      `Could not list its models: could not reach http://127.0.0.1:${port}/v1/models: nothing is listening at http://127.0.0.1:${port} (connection refused). This is a network problem, not the API key: start the model server, or check the port in the base URL`,
    );
    expect(await server.getByRole('button', { name: 'Start' }).isDisabled()).toBe(true);
    // The user can still name a model and go on (the server may start later).
    await server.getByRole('textbox', { name: 'Server model' }).fill('my-model');
    expect(await server.getByRole('button', { name: 'Start' }).isDisabled()).toBe(false);
  });
});
