import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { cliEnv } from '../support/cli-process';
import { connectStdio, textOf } from '../support/oi-mcp';
import { useUiApp } from '../support/ui-fixture';
import { SHOTS } from '../support/ui-harness';

// Another agent's client of `oi mcp` asks to run code; the desktop app's page (browser mode, in
// Chromium) shows who asks and the code, and the person's click decides. A real `oi mcp` process on
// the app's data folder, driven by the SDK's Client over stdio.

describe('oi mcp asking in the app', () => {
  const ui = useUiApp({ mcpApprovalEndpoint: true });

  it(
    'shows the client, language and code; "Allow once" runs it, "Deny" refuses the next, "Always allow" is listed in Settings',
    { timeout: 180_000 },
    async () => {
      const { page } = ui;
      expect(await ui.aut.app.mcpApprovalEndpoint).not.toBeNull();
      const ws = path.join(ui.aut.dataDir, 'agent-ws');
      const agent = await connectStdio(['--workspace', ws], cliEnv(ui.aut.dataDir), ws, 'claude-code');
      try {
        const call = (code: string) =>
          agent.client.callTool({ name: 'execute', arguments: { language: 'shell', code } }, undefined, {
            timeout: 150_000,
          }) as Promise<CallToolResult>;
        const running = call('echo "approved in the app"');
        const card = page.getByTestId('mcp-approval');
        await card.waitFor({ state: 'visible', timeout: 60_000 });
        await expect.poll(() => card.getAttribute('aria-label')).toBe('claude-code asks to run shell code');
        expect(await page.getByTestId('mcp-approval-code').textContent()).toBe('echo "approved in the app"');
        await page.screenshot({ path: path.join(SHOTS, 'ui-oi-mcp-approval.png') });
        await card.getByRole('button', { name: 'Allow once' }).click();
        const ran = await running;
        expect(ran.isError, textOf(ran)).toBeFalsy();
        expect(textOf(ran)).toBe('approved in the app');
        await card.waitFor({ state: 'detached', timeout: 15_000 });

        const declined = call('touch not-run.txt');
        await card.waitFor({ state: 'visible', timeout: 60_000 });
        await card.getByRole('button', { name: 'Deny' }).click();
        expect(textOf(await declined)).toBe('oi mcp did not run code: the person at the desktop app declined.');
        await card.waitFor({ state: 'detached', timeout: 15_000 });

        // "Always allow claude-code": this call runs, the next runs without a card, and Settings lists the client.
        const always = call('echo always');
        await card.waitFor({ state: 'visible', timeout: 60_000 });
        await card.getByRole('button', { name: 'Always allow claude-code' }).click();
        expect(textOf(await always)).toBe('always');
        expect(ui.aut.app.context.settings.get().mcpClients).toEqual({ 'claude-code': 'allow' });
        expect(textOf(await call('echo unasked'))).toBe('unasked');
        expect(await card.count()).toBe(0);
        await page.getByRole('button', { name: 'Settings' }).click();
        const section = page.getByTestId('mcp-clients-section');
        await expect.poll(() => section.getByRole('combobox', { name: 'claude-code policy' }).inputValue()).toBe('allow');
      } finally {
        await agent.close().catch(() => undefined);
      }
    },
  );
});
