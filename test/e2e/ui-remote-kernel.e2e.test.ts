import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAttribute, expectText } from '../support/page-expect';
import { startJupyterServer, type JupyterServer } from '../support/jupyter-server';
import { useUiApp } from '../support/ui-fixture';
import { sendMessage, shot } from '../support/ui-harness';

// Connecting a conversation to a real Jupyter Server from the top bar, running a cell there, and
// going back to local runs.

describe('remote kernel from the top bar', () => {
  let server: JupyterServer;
  beforeAll(async () => {
    server = await startJupyterServer();
  });
  afterAll(async () => server?.dispose());
  // One app and page for the file: each test goes on from where the last one left off.
  const ui = useUiApp({ settings: { autoRun: true } }, { start: 'once' });

  const host = () => `127.0.0.1:${server.port}`;
  const panel = () => ui.page.getByRole('dialog', { name: 'Remote kernel' });

  it('explains a wrong token, then lists kernels and connects with the right one', async () => {
    await ui.page.getByRole('button', { name: 'Remote kernel: local' }).click();
    await panel().getByLabel('Server URL').fill(server.url);
    await panel().getByLabel('Token').fill('wrong-token');
    await panel().getByRole('button', { name: 'List kernels' }).click();
    await expectText(panel().getByRole('alert'), `The Jupyter server at ${server.url} refused the token (HTTP 403)`);

    await panel().getByLabel('Token').fill(server.token);
    await panel().getByRole('button', { name: 'List kernels' }).click();
    const picker = panel().getByLabel('Kernel');
    await expectText(picker, 'Python 3 (ipykernel) (python)');
    expect(await panel().getByRole('alert').count()).toBe(0);
    await panel().getByRole('button', { name: 'Connect' }).click();

    await expectText(ui.page.getByTestId('kernel-button'), host());
    await expectText(ui.page.getByTestId('kernel-state'), `python runs on Python 3 (ipykernel) at ${host()}`);
    // Write-only: once saved in the keychain, the token is not kept in (or put back into) the page.
    // (It is cleared when connect() answers, which may come a moment after the state line.)
    await expect.poll(() => panel().getByLabel('Token').inputValue()).toBe('');
  });

  it('runs a cell on the server and says where it ran', async () => {
    await ui.page.keyboard.press('Escape');
    ui.aut.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_remote', name: 'execute', arguments: { language: 'python', code: 'x = 21 * 2; x' } }] },
      { kind: 'text', text: 'It is 42.' },
    );
    await sendMessage(ui.page, 'compute it on the server');
    const cell = ui.page.getByTestId('cell');
    await expectAttribute(cell, 'data-status', 'done', 60_000);
    await expectText(cell, '42');
    await expectText(cell.getByTestId('cell-limits'), `ran on ${host()}`);
    await expectText(ui.page.getByTestId('assistant-message').last(), 'It is 42.');
    // The screenshot shows the finished turn, not its last moment.
    await expect.poll(() => ui.page.getByText('The model is working').count()).toBe(0);
    await shot(ui.page, 'ui-remote-kernel.png');
  });

  it('disconnects back to local runs', async () => {
    await ui.page.getByRole('button', { name: `Remote kernel: ${host()}` }).click();
    // (It is cleared when connect() answers, which may come a moment after the state line.)
    await expect.poll(() => panel().getByLabel('Token').inputValue()).toBe('');
    await panel().getByRole('button', { name: 'Disconnect' }).click();
    await expectText(ui.page.getByTestId('kernel-button'), 'local');
    await expectText(ui.page.getByTestId('kernel-state'), 'Code runs on this machine.');
  });
});
