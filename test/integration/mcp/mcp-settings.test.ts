import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { McpServerStatus } from '@contract';
import type { App } from '../../../src-main/core/app';
import { createDispatcher, type Dispatcher } from '../../../src-main/core/bridge/dispatch';
import { MemorySecretStore } from '../../../src-main/core/secrets/memory-secret-store';
import { openNodeSettingsStore } from '../../../src-main/core/settings/node-settings-store';
import type { SettingsStore } from '../../../src-main/core/settings/settings-store';
import { useCoreApps } from '../../support/core-apps';
import { EVERYTHING, everythingStdio } from '../../support/mcp-servers';

// The Settings page's MCP requests through the real dispatcher, the settings file on disk and the real
// server-everything: servers saved, turned off, their tools' policies, secrets kept in the secret store
// (never in the file, never in an answer), and imports of other apps' config files, all-or-nothing.

const core = useCoreApps('oi-mcp-settings-');
const tempDir = core.tempDir;

interface Setup {
  dispatch: Dispatcher;
  app: App;
  settings: SettingsStore;
  secrets: MemorySecretStore;
  settingsFile: () => string;
  call<T = unknown>(name: string, input: unknown): Promise<T>;
  fail(name: string, input: unknown): Promise<string>;
}

function setup(): Setup {
  const settingsDir = tempDir();
  const settings = openNodeSettingsStore({ dir: settingsDir });
  const secrets = new MemorySecretStore();
  const app = core.app(settings, secrets);
  const dispatch = createDispatcher(app.handlers);
  const call = async <T>(name: string, input: unknown): Promise<T> => {
    const reply = await dispatch(name, input, { transport: 'websocket' });
    if (!reply.ok) throw new Error(`${name}: ${reply.error.message}`);
    return reply.result as T;
  };
  const fail = async (name: string, input: unknown): Promise<string> => {
    const reply = await dispatch(name, input, { transport: 'websocket' });
    if (reply.ok) throw new Error(`${name} was accepted`);
    return reply.error.message;
  };
  const settingsFile = () =>
    fs
      .readdirSync(settingsDir)
      .map((f) => fs.readFileSync(path.join(settingsDir, f), 'utf8'))
      .join('\n');
  return { dispatch, app, settings, secrets, settingsFile, call, fail };
}

const SECRET = 'ghp_secret-value-that-must-stay-in-the-keychain-1234';

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

describe('importing another app’s MCP config file', () => {
  /** server-everything as both the Claude Desktop and the goose file below give it, once imported: the token in the keychain. */
  const importedEverything = {
    command: process.execPath,
    args: [EVERYTHING, 'stdio'],
    env: { LOG_LEVEL: 'debug' },
    secretEnv: ['GITHUB_PERSONAL_ACCESS_TOKEN'],
  };
  function write(name: string, body: unknown): string {
    const file = path.join(tempDir(), name);
    fs.writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body));
    return file;
  }

  it('imports a Claude Desktop file, moving tokens to the keychain', async () => {
    const s = setup();
    const file = write('claude_desktop_config.json', {
      mcpServers: {
        everything: {
          command: process.execPath,
          args: [EVERYTHING, 'stdio'],
          env: { GITHUB_PERSONAL_ACCESS_TOKEN: SECRET, LOG_LEVEL: 'debug' },
        },
        'my.remote server': { url: 'https://example.com/mcp', headers: { Authorization: `Bearer ${SECRET}` } },
      },
    });
    const result = await s.call<{ added: string[]; toKeychain: string[] }>('mcp.import', { path: file });
    expect(result.added).toEqual(['everything', 'my-remote-server']);
    expect(result.toKeychain).toEqual(['everything: GITHUB_PERSONAL_ACCESS_TOKEN', 'my-remote-server: Authorization']);
    expect(s.settings.get().mcpServers).toEqual({
      everything: importedEverything,
      'my-remote-server': { url: 'https://example.com/mcp', secretHeaders: ['Authorization'] },
    });
    expect(s.settingsFile()).not.toContain(SECRET);
    expect(JSON.stringify(result)).not.toContain(SECRET);
    const status = await s.call<McpServerStatus>('mcp.connect', { name: 'everything' });
    expect(status.state).toBe('connected');
  });

  it('imports VS Code’s servers (JSONC, type http) and Cursor’s mcpServers', async () => {
    const s = setup();
    const vscode = write(
      'mcp.json',
      `{
      // VS Code's file
      "servers": { "api": { "type": "http", "url": "http://127.0.0.1:9/mcp", }, "old": { "type": "sse", "url": "http://127.0.0.1:9/sse" } },
    }`,
    );
    expect((await s.call<{ added: string[] }>('mcp.import', { path: vscode })).added).toEqual(['api', 'old']);
    expect(s.settings.get().mcpServers).toEqual({
      api: { url: 'http://127.0.0.1:9/mcp' },
      old: { url: 'http://127.0.0.1:9/sse', type: 'sse' },
    });
  });

  it('refuses a file with one bad entry, naming it and the field, and imports none of it', async () => {
    const s = setup();
    const bad = [
      [{ mcpServers: { good: { command: 'x' }, bad: { args: ['y'] } } }, /mcpServers\.bad: has neither "command"/],
      [
        { mcpServers: { good: { command: 'x' }, bad: { command: 'y', env: { N: 3 } } } },
        /mcpServers\.bad\.env\.N: must be text, not number/,
      ],
      [{ mcpServers: { good: { command: 'x' }, bad: { url: 'ftp://host/x' } } }, /mcpServers\.bad\.url/],
      [{ servers: { bad: { command: 'x', env: { TOKEN: '${input:token}' } } } }, /servers\.bad\.env: uses \$\{input:token\}/],
      [{ other: 1 }, /no "mcpServers"/],
      ['{ not json', /not valid JSON/],
    ] as const;
    for (const [body, message] of bad) {
      const file = write('config.json', body);
      expect(await s.fail('mcp.import', { path: file })).toMatch(message);
    }
    expect(await s.fail('mcp.import', { path: path.join(tempDir(), 'none.json') })).toMatch(/There is no file at/);
    expect(s.settings.get().mcpServers).toEqual({});
    expect(await s.secrets.accounts()).toEqual([]);
  });

  // A config.yaml as goose writes it (`goose configure` → Add Extension): provider settings, goose's own
  // builtin extension, a stdio server with envs, Streamable HTTP and SSE servers by uri, one disabled.
  const gooseConfig = (everything: string) => `GOOSE_PROVIDER: openai
GOOSE_MODEL: gpt-4o
extensions:
  developer:
    bundled: true
    display_name: Developer
    enabled: true
    name: developer
    timeout: 300
    type: builtin
  everything:
    args:
    - ${everything}
    - stdio
    cmd: ${process.execPath}
    description: MCP reference server
    enabled: true
    env_keys: []
    envs:
      GITHUB_PERSONAL_ACCESS_TOKEN: ${SECRET}
      LOG_LEVEL: debug
    name: everything
    timeout: 300
    type: stdio
  open-interpreter-http:
    enabled: true
    headers:
      Authorization: Bearer ${SECRET}
    name: open-interpreter-http
    timeout: 300
    type: streamable_http
    uri: http://127.0.0.1:8765/mcp
  old remote:
    enabled: false
    envs: {}
    name: old remote
    type: sse
    uri: http://127.0.0.1:9/sse
`;

  it('imports goose’s config.yaml: stdio cmd/args/envs, streamable_http and sse by uri, enabled; its builtin ones left out', async () => {
    const s = setup();
    const file = write('config.yaml', gooseConfig(EVERYTHING));
    const result = await s.call<{ added: string[]; toKeychain: string[] }>('mcp.import', { path: file });
    expect(result.added).toEqual(['everything', 'open-interpreter-http', 'old-remote']);
    expect(result.toKeychain).toEqual(['everything: GITHUB_PERSONAL_ACCESS_TOKEN', 'open-interpreter-http: Authorization']);
    expect(s.settings.get().mcpServers).toEqual({
      everything: importedEverything,
      'open-interpreter-http': { url: 'http://127.0.0.1:8765/mcp', secretHeaders: ['Authorization'] },
      'old-remote': { url: 'http://127.0.0.1:9/sse', type: 'sse', disabled: true },
    });
    expect(s.settingsFile()).not.toContain(SECRET);
    expect(JSON.stringify(result)).not.toContain(SECRET);
    // The imported entry starts the real server.
    expect((await s.call<McpServerStatus>('mcp.connect', { name: 'everything' })).state).toBe('connected');
  });

  it('refuses a goose file with one bad extension, naming it and the problem, and imports none of it', async () => {
    const s = setup();
    const good = gooseConfig(EVERYTHING);
    const bad = [
      [
        `${good}  broken:
    type: stdio
    args: [x]
`,
        /extensions\.broken: a stdio extension needs "cmd"/,
      ],
      [
        `${good}  keyed:
    type: stdio
    cmd: server
    env_keys: [API_TOKEN]
`,
        /extensions\.keyed\.env_keys: goose keeps the values of API_TOKEN in its own keyring/,
      ],
      [
        `${good}  odd:
    type: websocket
    uri: ws://127.0.0.1:9
`,
        /extensions\.odd\.type: "websocket" is not an extension type/,
      ],
      [
        `${good}  nouri:
    type: streamable_http
`,
        /extensions\.nouri: a streamable_http extension needs "uri"/,
      ],
      [
        `${good}  badenv:
    type: stdio
    cmd: x
    envs:
      N: 3
`,
        /extensions\.badenv\.env\.N: must be text, not number/,
      ],
      [
        `${good}  half:
    type: stdio
    cmd: x
    enabled: maybe
`,
        /extensions\.half\.enabled: must be true or false/,
      ],
      [
        `extensions:
  developer:
    type: builtin
    enabled: true
`,
        /lists no MCP servers under extensions \(goose's own builtin extensions are not servers\)/,
      ],
      [
        `extensions:
  a: [unclosed
`,
        /config\.yaml is not valid YAML/,
      ],
      [
        `extensions:
  a: {type: stdio, cmd: x}
  a: {type: stdio, cmd: y}
`,
        /not valid YAML: .*unique/i,
      ],
      // A "billion laughs" file: aliases that expand to millions of nodes are refused, not expanded.
      [
        'a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\nextensions: {}\n',
        /not valid YAML: .*alias/i,
      ],
    ] as const;
    for (const [body, message] of bad) {
      const file = write('config.yaml', body);
      expect(await s.fail('mcp.import', { path: file })).toMatch(message);
    }
    expect(s.settings.get().mcpServers).toEqual({});
    expect(await s.secrets.accounts()).toEqual([]);
  });

  it('refuses names already configured unless told to replace them', async () => {
    const s = setup();
    await s.call('mcp.save', { name: 'everything', config: everythingStdio() });
    const file = write('c.json', { mcpServers: { everything: { command: 'other' }, fresh: { command: 'new' } } });
    expect(await s.fail('mcp.import', { path: file })).toMatch(/Already configured: everything.*nothing was imported/);
    expect(Object.keys(s.settings.get().mcpServers)).toEqual(['everything']);
    expect(await s.call('mcp.import', { path: file, replace: true })).toMatchObject({ added: ['fresh'], replaced: ['everything'] });
    expect(s.settings.get().mcpServers.everything).toEqual({ command: 'other' });
  });
});
