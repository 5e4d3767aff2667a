import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { McpServerStatus } from '@contract';
import { useCoreApps } from '../../support/core-apps';
import { MCP_SECRET, mcpSettingsHarness, type McpSettingsHarness } from '../../support/mcp-settings-harness';
import { EVERYTHING, everythingStdio } from '../../support/mcp-servers';

// Settings' import of other apps' MCP config files (Claude Desktop, VS Code, Cursor, goose) through
// the real dispatcher, the settings file on disk and the real server-everything: tokens moved to the
// secret store, and a file with one bad entry imported not at all. Apart from mcp-settings.test.ts
// (servers saved, turned off, their secrets), which shares its harness (test/support/mcp-settings-harness.ts).

const core = useCoreApps('oi-mcp-import-');
const tempDir = core.tempDir;
const setup = (): McpSettingsHarness => mcpSettingsHarness(core);
const SECRET = MCP_SECRET;

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
