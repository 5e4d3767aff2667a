import { describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../src-main/core/secrets/memory-secret-store';
import { expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { sendMessage, shot } from '../support/ui-harness';
import { closedPort } from '../support/closed-port';

async function withKeys(): Promise<MemorySecretStore> {
  const store = new MemorySecretStore();
  await store.set('provider:openai', 'sk-test-e2e-openai-0001');
  await store.set('provider:anthropic', 'sk-ant-test-e2e-0002');
  return store;
}

describe('connection failures: the URL, the network or the key, and what to try', () => {
  const ui = useUiApp({}, { start: 'in-test' });
  const notice = () => ui.page.getByTestId('notice').last();

  it.each([
    ['openai', (port: number) => `http://127.0.0.1:${port}/v1`],
    ['anthropic', (port: number) => `http://127.0.0.1:${port}`],
  ] as const)('%s: nothing listening at the base URL', async (provider, url) => {
    const port = await closedPort();
    const model = provider === 'openai' ? 'gpt-4.1' : 'claude-sonnet-4-5';
    await ui.start({ secrets: await withKeys(), settings: { provider, model, baseUrl: url(port) } });
    await sendMessage(ui.page, 'Hello?');
    await expectText(
      notice(),
      `The model call failed: could not reach ${url(port)}: nothing is listening at http://127.0.0.1:${port} (connection refused). This is a network problem, not the API key: start the model server, or check the port in the base URL (Settings → Model).`,
    );
    expect(await notice().textContent()).not.toMatch(/Connection error\.$|refused the key/);
    await shot(ui.page, `ui-connection-refused-${provider}.png`);
    // Said at once: a refused connection is not retried.
    expect(await ui.page.locator('.chat').textContent()).not.toContain('trying again');
    await ui.close();
  });

  it('a host that does not exist, for the model call and for the key test', async () => {
    await ui.start({
      secrets: await withKeys(),
      settings: { provider: 'openai', model: 'gpt-4.1', baseUrl: 'http://no-such-host.invalid/v1' },
    });
    await sendMessage(ui.page, 'Hello?');
    await expectText(
      notice(),
      'could not reach http://no-such-host.invalid/v1: the address no-such-host.invalid could not be found (DNS lookup failed). This is a network problem, not the API key: check that this machine is online',
    );

    await ui.page.getByRole('button', { name: 'API keys' }).click();
    const openai = ui.page.getByTestId('key-openai');
    await openai.getByRole('button', { name: 'Test' }).click();
    const result = openai.getByTestId('key-result');
    await expectText(
      result,
      'Could not check the key: could not reach http://no-such-host.invalid/v1/models: the address no-such-host.invalid could not be found (DNS lookup failed). This is a network problem, not the API key',
    );
    expect(await result.textContent()).not.toContain('did not work');
    await shot(ui.page, 'ui-key-test-network.png');
    await ui.close();
  });

  it('the key test on a refused connection does not blame the key', async () => {
    const port = await closedPort();
    await ui.start({
      secrets: await withKeys(),
      settings: { provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: `http://127.0.0.1:${port}` },
    });
    await ui.page.getByRole('button', { name: 'API keys' }).click();
    const anthropic = ui.page.getByTestId('key-anthropic');
    await anthropic.getByRole('button', { name: 'Test' }).click();
    await expectText(
      anthropic.getByTestId('key-result'),
      `Could not check the key: could not reach http://127.0.0.1:${port}/v1/models: nothing is listening`,
    );
    await ui.close();
  });

  it('a refused key: the URL, and that the key is at fault', async () => {
    await ui.start({ secrets: await withKeys() });
    ui.aut.llm.enqueue({ kind: 'error', status: 401, message: 'Incorrect API key provided', headers: { 'x-should-retry': 'false' } });
    await sendMessage(ui.page, 'Hello?');
    await expectText(
      notice(),
      `The model call failed: the OpenAI API at ${ui.aut.llm.openaiBaseUrl} refused the key (401 Incorrect API key provided). The network is fine; the key is not: check it in Settings → API keys`,
    );
    await ui.close();
  });
});
