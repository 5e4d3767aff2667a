import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROXIED_HOST, startHostServer, type HostServer } from '../support/host-server';
import { expectAttribute, expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { shot } from '../support/ui-harness';

// The sandbox's network question in the window (docs/sandbox.md, "Network"): a sandboxed cell asks for
// a host that is neither a registry nor allowed; the card on the cell names it, the code waits, and
// the person's answer decides. Real app, real Chromium, real bubblewrap and proxy.

const HOST = PROXIED_HOST;

describe('the network question on a sandboxed cell', () => {
  let host: HostServer;
  let port = 0;
  const served = () => host.served();
  beforeAll(async () => {
    host = await startHostServer();
    port = host.port;
  });
  afterAll(() => host?.close());

  const ui = useUiApp(
    {
      settings: {
        autoRun: true,
        exec: { pythonPath: '/usr/bin/python3' },
        sandbox: { enabled: true, chosen: true, allowNetwork: false, extraPaths: [], allowedHosts: [] },
      },
    },
    { newConversation: true, viewport: { width: 800, height: 900 } },
  );

  const ask = async (id: string) => {
    const code = `import urllib.request\ntry:\n    print(urllib.request.urlopen("http://${HOST}:${port}/", timeout=120).read().decode())\nexcept Exception as e:\n    print("FAILED", e)`;
    ui.aut.llm.enqueue(
      { kind: 'tool', calls: [{ id, name: 'execute', arguments: { language: 'python', code } }] },
      { kind: 'text', text: 'Done.' },
    );
    await ui.page.getByRole('textbox', { name: 'Message' }).fill('fetch it');
    await ui.page.getByRole('textbox', { name: 'Message' }).press('Enter');
    const prompt = ui.page.getByTestId('network-prompt').last();
    await expectText(prompt, `The code wants to connect to ${HOST}:${port}`, 60_000);
    return prompt;
  };

  it('names the host while the code waits; Deny refuses it and the host sees nothing', async () => {
    const before = served();
    const prompt = await ask('call_deny');
    await expectText(ui.page.getByTestId('working'), `Waiting for you — let the code reach ${HOST}?`);
    await expectText(ui.page.getByTestId('cell-status').last(), 'waiting for you');
    // Readable at 800 px: the three answers are on screen, not pushed out of the card.
    for (const name of ['Allow in this conversation', `Always allow ${HOST}`, 'Deny']) {
      expect(await prompt.getByRole('button', { name, exact: true }).isVisible()).toBe(true);
    }
    await shot(ui.page, 'ui-network-question.png');
    await prompt.getByRole('button', { name: 'Deny', exact: true }).click();
    const cell = ui.page.getByTestId('cell').last();
    await expectAttribute(cell, 'data-status', 'done', 60_000);
    await expectText(cell, /FAILED .*403.*the person did not allow 127\.0\.0\.2/);
    expect(await ui.page.getByTestId('network-prompt').count()).toBe(0);
    expect(served()).toBe(before);
  });

  it('"Always allow" lets the code through and keeps the host in the settings', async () => {
    const before = served();
    const prompt = await ask('call_always');
    await prompt.getByRole('button', { name: `Always allow ${HOST}`, exact: true }).click();
    const cell = ui.page.getByTestId('cell').last();
    await expectAttribute(cell, 'data-status', 'done', 60_000);
    await expectText(cell, 'hello from the host');
    expect(served()).toBe(before + 1);
    const settings = async () => (await ui.aut.app.handlers['settings.get']({}, { transport: 'websocket' })).sandbox.allowedHosts;
    expect(await settings()).toContain(HOST);

    // Settings shows it, and taking it off the list there is saved.
    await ui.page.getByRole('button', { name: 'Settings' }).click();
    const list = ui.page.getByLabel('Hosts code may always reach');
    expect(await list.inputValue()).toBe(HOST);
    await list.fill('');
    await list.blur();
    await expect.poll(settings, { timeout: 30_000 }).toEqual([]);
  });
});
