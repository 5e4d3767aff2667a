import { afterEach, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../src-main/core/secrets/memory-secret-store';
import { startScriptedLlm, type ScriptedLlm } from '../fixtures/llm-server';
import { expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { sendMessage, type OpenAiBody, shot } from '../support/ui-harness';
import { closedPort } from '../support/closed-port';

describe('first run', () => {
  let local: ScriptedLlm;
  // Registered before the fixture's hooks, so it runs after the app using the server has closed.
  afterEach(async () => local?.close());

  const ui = useUiApp(async () => {
    // The stand-in for LM Studio: an OpenAI-compatible server on its own port, with two models.
    local = await startScriptedLlm({ models: ['qwen2.5-coder-7b', 'llama-3.2-3b'] });
    const port = Number(new URL(local.url).port);
    return {
      llm: local,
      // A new user: default provider (OpenAI), no key saved, none in the environment.
      settings: { provider: 'openai', baseUrl: null, model: 'gpt-4.1' },
      secrets: new MemorySecretStore(),
      env: {},
      localServers: [
        { id: 'ollama', name: 'Ollama', provider: 'ollama', port: await closedPort(), listPath: '/api/tags' },
        { id: 'lmstudio', name: 'LM Studio', provider: 'openai-compatible', port, listPath: '/v1/models' },
      ],
    };
  });

  it('finds a local OpenAI-compatible server, lists its models, and reaches a working chat in one pick', async () => {
    const dialog = ui.page.getByRole('dialog', { name: 'Choose a model to start' });
    const choice = dialog.getByRole('group', { name: 'LM Studio' });
    await expectText(choice, '2 models');
    const select = choice.getByRole('combobox', { name: 'LM Studio model' });
    expect(await select.locator('option').allTextContents()).toEqual(['llama-3.2-3b', 'qwen2.5-coder-7b']);
    expect(await dialog.getByRole('group', { name: 'Ollama' }).count()).toBe(0);
    await shot(ui.page, 'ui-first-run.png');
    // Detection only listed models; nothing was sent to a model yet.
    expect(local.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models']);

    await select.selectOption('qwen2.5-coder-7b');
    await choice.getByRole('button', { name: 'Use LM Studio' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    const settings = ui.aut.app.context.settings.get();
    expect(settings).toMatchObject({ provider: 'openai-compatible', model: 'qwen2.5-coder-7b', baseUrl: `${local.url}/v1` });
    await expectText(ui.page.getByTestId('model-button'), 'qwen2.5-coder-7b');

    local.enqueue({ kind: 'text', text: 'Hello from the local model.' });
    await sendMessage(ui.page, 'Hi');
    await expectText(ui.page.getByTestId('assistant-message').last(), 'Hello from the local model.');
    const chat = local.requests.filter((r) => r.path === '/v1/chat/completions');
    expect(chat).toHaveLength(1);
    expect((chat[0]?.body as OpenAiBody).model).toBe('qwen2.5-coder-7b');
  });
});
