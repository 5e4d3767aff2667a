import os from 'node:os';
import { describe, expect, it } from 'vitest';
import type { McpServerStatus } from '@contract';
import { useCoreApps } from '../../support/core-apps';
import { MCP_SECRET, mcpSettingsHarness, type McpSettingsHarness } from '../../support/mcp-settings-harness';
import { everythingStdio } from '../../support/mcp-servers';

// The Settings page's MCP requests through the real dispatcher, the settings file on disk and the real
// server-everything: servers saved, turned off, their tools' policies, secrets kept in the secret store
// (never in the file, never in an answer). Imports of other apps' config files: mcp-import.test.ts.

const core = useCoreApps('oi-mcp-settings-');
const setup = (): McpSettingsHarness => mcpSettingsHarness(core);
const SECRET = MCP_SECRET;

describe('MCP servers in Settings', () => {
  it('adds a server, connects it and lists its tools with their read-only marks; turns it off and removes it', async () => {
    const s = setup();
    const added = await s.call<McpServerStatus>('mcp.save', { name: 'everything', config: everythingStdio() });
    expect(added).toMatchObject({ name: 'everything', state: 'connected', transport: 'stdio' });
    expect(added.toolCount).toBeGreaterThan(5);
    // A tool the server marks read-only is allowed until the user says otherwise (docs/mcp.md).
    expect(added.tools?.find((t) => t.name === 'get-env')).toMatchObject({ readOnly: true, policy: 'allow' });
    expect(s.settings.get().mcpServers.everything).toEqual(everythingStdio());

    const off = await s.call<McpServerStatus>('mcp.set-enabled', { name: 'everything', enabled: false });
    expect(off.state).toBe('disabled');
    expect(s.settings.get().mcpServers.everything?.disabled).toBe(true);
    expect(await s.app.context.mcp.tools()).toEqual([]);

    const on = await s.call<McpServerStatus>('mcp.set-enabled', { name: 'everything', enabled: true });
    expect(on.state).toBe('connected');
    await s.call('mcp.remove', { name: 'everything' });
    expect(s.settings.get().mcpServers).toEqual({});
    expect(await s.call('mcp.status', {})).toEqual([]);
  });

  it('remembers "always allow" and "off" per tool, and takes them back', async () => {
    const s = setup();
    await s.call('mcp.save', { name: 'everything', config: everythingStdio() });
    await s.call('mcp.set-tool-policy', { server: 'everything', tool: 'echo', policy: 'allow' });
    await s.call('mcp.set-tool-policy', { server: 'everything', tool: 'get-env', policy: 'disabled' });
    expect(s.settings.get().mcpServers.everything).toMatchObject({ alwaysAllow: ['echo'], disabledTools: ['get-env'] });
    let tools = await s.app.context.mcp.tools();
    expect(tools.find((t) => t.tool === 'echo')?.alwaysAllow).toBe(true);
    expect(tools.find((t) => t.tool === 'get-env')).toBeUndefined();
    const status = (await s.call<McpServerStatus[]>('mcp.status', {}))[0];
    expect(status?.tools?.find((t) => t.name === 'get-env')?.policy).toBe('disabled');

    // Editing the server keeps the choices; setting "ask" takes them back.
    await s.call('mcp.save', { name: 'everything', config: everythingStdio({ cwd: os.tmpdir() }) });
    expect(s.settings.get().mcpServers.everything).toMatchObject({ alwaysAllow: ['echo'], disabledTools: ['get-env'] });
    await s.call('mcp.set-tool-policy', { server: 'everything', tool: 'echo', policy: 'ask' });
    await s.call('mcp.set-tool-policy', { server: 'everything', tool: 'get-env', policy: 'ask' });
    await s.call('mcp.set-tool-policy', { server: 'everything', tool: 'toggle-simulated-logging', policy: 'ask' });
    // Both are marked read-only by the server, so "ask" is kept (a tool not marked so needs no entry).
    expect(s.settings.get().mcpServers.everything).toEqual(everythingStdio({ cwd: os.tmpdir(), askTools: ['echo', 'get-env'] }));
    tools = await s.app.context.mcp.tools();
    expect(tools.find((t) => t.tool === 'echo')?.alwaysAllow).toBe(false);
    expect(tools.find((t) => t.tool === 'get-env')).toBeDefined();
  });

  it('refuses a bad entry naming the field, and saves nothing', async () => {
    const s = setup();
    expect(await s.fail('mcp.save', { name: 'bad name!', config: everythingStdio() })).toMatch(/name/);
    expect(await s.fail('mcp.save', { name: 'x', config: { command: '' } })).toMatch(/config/);
    expect(await s.fail('mcp.save', { name: 'x', config: { url: 'ftp://example.com/mcp' } })).toMatch(/config/);
    // A secret named without a value, and nothing saved in the keychain either.
    expect(await s.fail('mcp.save', { name: 'x', config: everythingStdio({ secretEnv: ['API_TOKEN'] }) })).toMatch(
      /config\.secretEnv: "API_TOKEN" needs a value/,
    );
    expect(
      await s.fail('mcp.save', {
        name: 'x',
        config: everythingStdio({ env: { API_TOKEN: 'a' }, secretEnv: ['API_TOKEN'] }),
        secretValues: { env: { API_TOKEN: 'b' } },
      }),
    ).toMatch(/also a plain value/);
    expect(s.settings.get().mcpServers).toEqual({});
    expect(await s.secrets.accounts()).toEqual([]);
  });

  it('a server that cannot start reports why, and the app goes on', async () => {
    const s = setup();
    const status = await s.call<McpServerStatus>('mcp.save', { name: 'missing', config: { command: '/nonexistent/mcp-server' } });
    expect(status.state).toBe('failed');
    expect(status.lastError).toMatch(/could not start: .*ENOENT|could not start/);
    const again = await s.call<McpServerStatus>('mcp.save', {
      name: 'crashes',
      config: { command: process.execPath, args: ['-e', 'process.stderr.write("boom: no config\\n"); process.exit(3)'] },
    });
    expect(again.state).toBe('failed');
    expect(again.stderrTail).toContain('boom: no config');
    expect((await s.call<McpServerStatus[]>('mcp.status', {})).map((x) => x.name)).toEqual(['missing', 'crashes']);
  });
});

describe('MCP secrets', () => {
  it('keeps a secret env value in the secret store: not in the settings file, not in any answer, but in the server', async () => {
    const s = setup();
    const status = await s.call<McpServerStatus>('mcp.save', {
      name: 'everything',
      config: everythingStdio({ env: { PLAIN: 'visible' }, secretEnv: ['GITHUB_TOKEN'] }),
      secretValues: { env: { GITHUB_TOKEN: SECRET } },
    });
    expect(status.state).toBe('connected');
    expect(status.missingSecrets).toEqual([]);
    expect(s.settingsFile()).toContain('GITHUB_TOKEN');
    expect(s.settingsFile()).not.toContain(SECRET);
    expect(await s.secrets.get('mcp:everything:env:GITHUB_TOKEN')).toBe(SECRET);
    for (const answer of [status, await s.call('mcp.status', {}), await s.call('settings.get', {})])
      expect(JSON.stringify(answer)).not.toContain(SECRET);

    // The server itself does get it (and the plain value).
    const getEnv = (await s.app.context.mcp.tools()).find((t) => t.tool === 'get-env');
    if (!getEnv) throw new Error('no get-env');
    const env = await s.app.context.mcp.call(getEnv, {}, { timeoutMs: 30_000, signal: new AbortController().signal });
    const text = env.content.map((c) => (c.type === 'text' || c.type === 'other' ? c.text : '')).join('');
    expect(text).toContain(SECRET);
    expect(text).toContain('visible');

    // Saved again without the value: the saved one stays. Renamed: it moves. Removed: it goes.
    await s.call('mcp.save', { name: 'everything', config: everythingStdio({ secretEnv: ['GITHUB_TOKEN'] }) });
    expect(await s.secrets.get('mcp:everything:env:GITHUB_TOKEN')).toBe(SECRET);
    await s.call('mcp.save', { name: 'renamed', previousName: 'everything', config: everythingStdio({ secretEnv: ['GITHUB_TOKEN'] }) });
    expect(await s.secrets.accounts()).toEqual(['mcp:renamed:env:GITHUB_TOKEN']);
    await s.call('mcp.remove', { name: 'renamed' });
    expect(await s.secrets.accounts()).toEqual([]);
  });

  it('twin: the same value written as plain env is in the settings file and in answers (what the secret field prevents)', async () => {
    const s = setup();
    await s.call('mcp.save', { name: 'everything', config: everythingStdio({ env: { GITHUB_TOKEN: SECRET } }) });
    expect(s.settingsFile()).toContain(SECRET);
    expect(JSON.stringify(await s.call('settings.get', {}))).toContain(SECRET);
  });

  it('a secret header reaches an HTTP server only through the keychain entry', async () => {
    const s = setup();
    const status = await s.call<McpServerStatus>('mcp.save', {
      name: 'remote',
      config: { url: 'http://127.0.0.1:9/mcp', secretHeaders: ['Authorization'] },
      secretValues: { headers: { Authorization: `Bearer ${SECRET}` } },
    });
    expect(status.state).toBe('failed');
    expect(JSON.stringify(status)).not.toContain(SECRET);
    expect(s.settingsFile()).not.toContain(SECRET);
    expect(await s.secrets.get('mcp:remote:header:Authorization')).toBe(`Bearer ${SECRET}`);
  });
});
