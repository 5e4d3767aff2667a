import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectText } from '../support/page-expect';
import { EVERYTHING } from '../support/mcp-servers';
import { useUiApp } from '../support/ui-fixture';
import { shot } from '../support/ui-harness';

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

    // A secret's value is typed into a masked field; a token pasted into the environment lines moves there.
    await section.getByRole('textbox', { name: 'Environment' }).fill(`LOG_LEVEL=debug\nGITHUB_TOKEN=${SECRET}-gh`);
    await section.getByRole('button', { name: 'Add secret' }).click();
    await section.getByRole('textbox', { name: 'Secret 1 name' }).fill('API_TOKEN');
    const value = section.getByLabel('Secret 1 value');
    expect(await value.getAttribute('type')).toBe('password');
    await value.fill(SECRET);
    await shot(page, 'ui-mcp-secret-masked.png');
    await section.getByRole('button', { name: 'Save' }).click();
    const row = section.getByTestId('mcp-server-everything');
    await expectText(row.getByTestId('mcp-state'), 'connected');
    expect(ui.aut.app.context.settings.get().mcpServers.everything).toEqual({
      command: process.execPath,
      args: [EVERYTHING, 'stdio'],
      env: { LOG_LEVEL: 'debug' },
      secretEnv: ['API_TOKEN', 'GITHUB_TOKEN'],
    });
    expect(await ui.aut.app.context.keys.get('mcp:everything:env:GITHUB_TOKEN')).toBe(`${SECRET}-gh`);

    await row.getByRole('button', { name: 'Tools' }).click();
    // echo is marked read-only by the server, so it is allowed until set to Ask; another tool asks until allowed.
    expect(await row.getByRole('combobox', { name: 'echo policy' }).inputValue()).toBe('allow');
    await row.getByRole('combobox', { name: 'echo policy' }).selectOption('ask');
    await expect.poll(() => ui.aut.app.context.settings.get().mcpServers.everything?.askTools).toEqual(['echo']);
    expect(await row.getByRole('combobox', { name: 'toggle-simulated-logging policy' }).inputValue()).toBe('ask');
    await row.getByRole('combobox', { name: 'toggle-simulated-logging policy' }).selectOption('allow');
    await expect.poll(() => ui.aut.app.context.settings.get().mcpServers.everything?.alwaysAllow).toEqual(['toggle-simulated-logging']);
    await shot(page, 'ui-mcp-settings.png', { fullPage: true });

    // Edit: the form shows the secrets' names, never their values; saving unchanged keeps them in the keychain.
    await row.getByRole('button', { name: 'Edit' }).click();
    expect(await section.getByRole('textbox', { name: 'Secret 1 name' }).inputValue()).toBe('API_TOKEN');
    expect(await section.getByRole('textbox', { name: 'Secret 2 name' }).inputValue()).toBe('GITHUB_TOKEN');
    expect(await section.getByLabel('Secret 1 value').inputValue()).toBe('');
    expect(await section.getByLabel('Secret 1 value').getAttribute('type')).toBe('password');
    expect(await section.getByRole('textbox', { name: 'Environment' }).inputValue()).toBe('LOG_LEVEL=debug');
    await section.getByRole('button', { name: 'Save' }).click();
    await expectText(row.getByTestId('mcp-state'), 'connected');
    expect(await ui.aut.app.context.keys.get('mcp:everything:env:API_TOKEN')).toBe(SECRET);

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
