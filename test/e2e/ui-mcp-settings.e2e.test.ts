import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectText } from '../support/page-expect';
import { EVERYTHING } from '../support/mcp-servers';
import { useUiApp } from '../support/ui-fixture';
import { SHOTS } from '../support/ui-harness';

// Settings → MCP servers in Chromium against the real app and the real server-everything: a server
// added through the form connects and lists its tools, a tool is set to "always allow", a secret typed
// there never comes back to the page, a bad file import names its bad field and adds nothing.

const SECRET = 'mcp-ui-secret-0f3c9a7e5b';

describe('MCP servers in Settings', () => {
  const ui = useUiApp();

  it('adds a server with a secret, shows its state and tools, always-allows a tool, and imports a file', async () => {
    const { page } = ui;
    await page.getByRole('button', { name: 'Settings' }).click();
    const section = page.getByTestId('mcp-section');
    await section.getByRole('button', { name: 'Add server' }).click();
    await section.getByRole('textbox', { name: 'Server name' }).fill('everything');
    await section.getByRole('textbox', { name: 'Command' }).fill(process.execPath);
    // A bad line is refused in the form, naming the field; nothing is saved.
    await section.getByRole('textbox', { name: 'Arguments' }).fill(`${EVERYTHING}\nstdio`);
    await section.getByRole('textbox', { name: 'Environment' }).fill('no equals sign');
    await section.getByRole('button', { name: 'Save' }).click();
    await expectText(section.getByTestId('mcp-form-error'), /Environment, line 1/);
    expect(ui.aut.app.context.settings.get().mcpServers).toEqual({});

    await section.getByRole('textbox', { name: 'Environment' }).fill('LOG_LEVEL=debug');
    await section.getByRole('textbox', { name: 'Secrets' }).fill(`API_TOKEN=${SECRET}`);
    await section.getByRole('button', { name: 'Save' }).click();
    const row = section.getByTestId('mcp-server-everything');
    await expectText(row.getByTestId('mcp-state'), 'connected');
    expect(ui.aut.app.context.settings.get().mcpServers.everything).toMatchObject({
      env: { LOG_LEVEL: 'debug' },
      secretEnv: ['API_TOKEN'],
    });

    await row.getByRole('button', { name: 'Tools' }).click();
    await row.getByRole('combobox', { name: 'echo policy' }).selectOption('allow');
    await expect.poll(() => ui.aut.app.context.settings.get().mcpServers.everything?.alwaysAllow).toEqual(['echo']);
    await page.screenshot({ path: path.join(SHOTS, 'ui-mcp-settings.png'), fullPage: true });

    // Edit: the form shows the secret's name, never its value.
    await row.getByRole('button', { name: 'Edit' }).click();
    expect(await section.getByRole('textbox', { name: 'Secrets' }).inputValue()).toBe('API_TOKEN=');
    await section.getByRole('button', { name: 'Cancel' }).click();

    // Import: a bad entry names the entry and field and adds nothing.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oi-mcp-ui-'));
    const file = path.join(dir, 'claude_desktop_config.json');
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { ok: { command: 'x' }, broken: { args: ['y'] } } }));
    await section.getByRole('button', { name: /^Import from/ }).click();
    await section.getByRole('textbox', { name: 'Config file path' }).fill(file);
    await section.getByRole('button', { name: 'Import file' }).click();
    await expectText(section.getByTestId('mcp-import-message'), /mcpServers\.broken: has neither "command"/);
    expect(Object.keys(ui.aut.app.context.settings.get().mcpServers)).toEqual(['everything']);
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { second: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }));
    await section.getByRole('button', { name: 'Import file' }).click();
    await expectText(section.getByTestId('mcp-import-message'), /Added second/);
    await expectText(section.getByTestId('mcp-server-second').getByTestId('mcp-state'), /not started|connected/);
    fs.rmSync(dir, { recursive: true, force: true });

    // The secret went to main and the keychain, and never back to the page.
    expect(ui.frames.join('\n')).not.toContain(SECRET);
    expect(await page.content()).not.toContain(SECRET);
  });
});
