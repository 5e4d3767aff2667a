import { request } from 'node:http';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, connectHttp, textOf, useOiMcp } from '../../support/oi-mcp';
import { useSharedOiMcpStdio } from '../../support/shared-oi-mcp';

// `oi mcp` is reachable by another agent (stdio) or any local program (HTTP). Each attack is the real
// request a hostile client or web page would send; each twin shows the attack has a target: the path
// really leads out, the request with the right credentials really works, the key really is in the
// server's environment.

const oi = useOiMcp();

const SECRET = 'TOP SECRET: outside the workspace';

/** Plants links leading out of the workspace (a folder and a file) and one that stays inside. */
function plant({ dir, ws }: { dir: string; ws: string }): void {
  const outside = path.join(dir, 'outside');
  mkdirSync(path.join(ws, 'inner'), { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(path.join(outside, 'secret.txt'), SECRET);
  writeFileSync(path.join(ws, 'inner', 'mine.txt'), 'inside');
  symlinkSync(outside, path.join(ws, 'out'));
  symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'link.txt'));
  symlinkSync('inner', path.join(ws, 'alias'));
}

// Two servers each serve two tests (issue 36: an `oi mcp` start is ~1.4 CPU-seconds). Each is started
// with exactly the flags and environment both of its tests name, and each test touches only its own
// files: the default server (`--auto-run`, no sandbox flag, no saved choice) on the planted workspace
// serves the workspace attack, whose files are all inside the workspace, and the sandbox test's
// "on by default" case, whose victim is beside it in the data folder; the `--no-sandbox` server with a
// key in its environment serves the key attack and the sandbox test's twin. What each proves is per
// call (a path's checks, the child's environment, where a write lands), not per process.
const KEY = 'sk-mcp-attack-key-4242424242424242';
const planted = useSharedOiMcpStdio('oi-mcp-attack-', (ws) => ['--workspace', ws, '--auto-run'], { prepare: plant });
// --no-sandbox: the worst case for the key, code that can see the server's /proc entry (sandboxed code cannot).
const keyed = useSharedOiMcpStdio('oi-mcp-attack-', (ws) => ['--workspace', ws, '--auto-run', '--no-sandbox'], {
  env: { OPENAI_API_KEY: KEY },
});

describe('oi mcp keeps a client inside --workspace', () => {
  it('refuses .., absolute paths and links leading out, for reading, listing and writing', { timeout: 120_000 }, async () => {
    const {
      data: { ws, dir },
      server: { client },
    } = await planted();
    const outside = path.join(dir, 'outside');

    const attempts: [string, Record<string, unknown>, RegExp][] = [
      ['read_file', { path: '../outside/secret.txt' }, /goes above the workspace/],
      ['read_file', { path: path.join(outside, 'secret.txt') }, /absolute path/],
      ['read_file', { path: 'out/secret.txt' }, /leads outside the workspace through a symbolic link/],
      ['read_file', { path: 'link.txt' }, /symbolic link to a place outside the workspace/],
      ['list_files', { path: 'out' }, /outside the workspace/],
      ['list_files', { path: '..' }, /goes above the workspace/],
      ['write_file', { path: 'out/planted.txt', content: 'pwned' }, /outside the workspace/],
      ['write_file', { path: '../planted.txt', content: 'pwned' }, /goes above the workspace/],
      ['export_notebook', { path: 'out/planted.ipynb' }, /outside the workspace/],
    ];
    for (const [tool, args, reason] of attempts) {
      const result = await call(client, tool, args);
      expect(result.isError, `${tool} ${JSON.stringify(args)}: ${textOf(result)}`).toBe(true);
      expect(textOf(result)).toMatch(reason);
      expect(textOf(result)).not.toContain(SECRET);
    }
    // A link at the written path is replaced by the file, never written through.
    expect((await call(client, 'write_file', { path: 'link.txt', content: 'replaced' })).isError).toBeFalsy();
    expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe(SECRET);
    expect(readFileSync(path.join(ws, 'link.txt'), 'utf8')).toBe('replaced');
    expect(existsSync(path.join(outside, 'planted.txt'))).toBe(false);
    expect(existsSync(path.join(dir, 'planted.txt'))).toBe(false);
    expect(existsSync(path.join(outside, 'planted.ipynb'))).toBe(false);
    // The listing shows the links as links, and nothing from outside.
    const listed = JSON.stringify(JSON.parse(textOf(await call(client, 'list_files'))));
    expect(listed).toContain('"path":"out","kind":"symlink"');
    expect(listed).not.toContain('secret.txt');

    // Twin: the same paths, opened the plain way, do reach the secret; links that stay inside work.
    expect(readFileSync(path.join(ws, '../outside/secret.txt'), 'utf8')).toBe(SECRET);
    expect(readFileSync(path.join(ws, 'out/secret.txt'), 'utf8')).toBe(SECRET);
    expect(textOf(await call(client, 'read_file', { path: 'alias/mine.txt' }))).toBe('inside');
    expect((await call(client, 'write_file', { path: 'alias/new.txt', content: 'ok' })).isError).toBeFalsy();
    expect(readFileSync(path.join(ws, 'inner', 'new.txt'), 'utf8')).toBe('ok');
  });
});

describe('oi mcp --http lets in only the holder of its token, from its own host', () => {
  /** A raw POST of an initialize request, with the headers a hostile caller chooses. */
  function initialize(url: URL, headers: Record<string, string>): Promise<{ status: number; body: string }> {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'attacker', version: '1' } },
    });
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString('utf8')));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  it('refuses a missing or wrong token, another Host and a web page, and serves the right request', { timeout: 120_000 }, async () => {
    const { ws, env } = oi.data('oi-mcp-attack-');
    const http = await oi.http(['--workspace', ws, '--auto-run'], env, ws);
    const host = `127.0.0.1:${http.url.port}`;
    const bearer = `Bearer ${http.token}`;

    const none = await initialize(http.url, { host });
    expect(none.status).toBe(401);
    expect(none.body).toContain('needs its token');
    expect((await initialize(http.url, { host, authorization: 'Bearer not-the-token-at-all-0000' })).status).toBe(401);
    expect((await initialize(http.url, { host, authorization: `Basic ${http.token}` })).status).toBe(401);
    // DNS rebinding: a page on evil.example whose name now resolves to 127.0.0.1 sends its own Host.
    const rebound = await initialize(http.url, { host: `evil.example:${http.url.port}`, authorization: bearer });
    expect(rebound.status).toBe(403);
    expect((await initialize(http.url, { host, authorization: bearer, origin: 'https://evil.example' })).status).toBe(403);
    // Another local page (another port) is a web page too; only this server's own origin passes.
    expect(
      (await initialize(http.url, { host, authorization: bearer, origin: `http://127.0.0.1:${Number(http.url.port) + 1}` })).status,
    ).toBe(403);
    expect((await initialize(http.url, { host, authorization: bearer, origin: `http://localhost:${http.url.port}` })).status).toBe(200);
    // The SDK's client without the token cannot connect either.
    await expect(connectHttp(http.url, {})).rejects.toThrow(/401|token/);

    // Twin: the same request with the token and our Host is served.
    const ok = await initialize(http.url, { host, authorization: bearer });
    expect(ok.status).toBe(200);
    expect(ok.body).toContain('open-interpreter');
    const client = await connectHttp(http.url, { Authorization: bearer });
    expect(textOf(await call(client, 'execute', { language: 'shell', code: 'echo served' }))).toBe('served');
    await client.close();
  });
});

describe('oi mcp never hands the keys it holds to the code it runs', () => {
  it("strips key variables and redacts a key read from the server's own environment", { timeout: 120_000 }, async () => {
    const key = KEY;
    const { server: stdio } = await keyed();
    const pid = stdio.transport.pid;
    expect(pid).toBeTypeOf('number');
    const out = await call(stdio.client, 'execute', {
      language: 'shell',
      code: `echo "env: $OPENAI_API_KEY"; tr '\\0' '\\n' < /proc/${pid}/environ | grep OPENAI_API_KEY`,
    });
    const text = textOf(out);
    expect(text).toContain('env: \n');
    expect(text).toContain('OPENAI_API_KEY=[redacted');
    expect(text).not.toContain(key);
    // The exported notebook and the saved conversation do not carry it either.
    expect(textOf(await call(stdio.client, 'export_notebook'))).not.toContain(key);

    // Twin: the key is there to steal — the server's environment holds it, as the attack read it.
    expect(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')).toContain(`OPENAI_API_KEY=${key}`);
  });
});

describe('oi mcp runs a client’s code in the sandbox', () => {
  it(
    'keeps a write outside the workspace from happening, by default and with --sandbox; the same code with --no-sandbox writes it',
    { timeout: 240_000 },
    async () => {
      const { dir, ws, env } = oi.data('oi-mcp-attack-');
      const write = (victim: string) => `echo pwned > ${JSON.stringify(victim)}; echo "exit $?"`;
      const victim = path.join(dir, 'victim.txt');
      const stdio = await oi.stdio(['--workspace', ws, '--auto-run', '--sandbox'], env, ws);
      // The code runs (the sandbox's /tmp is its own, so the write lands there), and the real file is untouched.
      expect(textOf(await call(stdio.client, 'execute', { language: 'shell', code: write(victim) }))).toContain('exit 0');
      expect(existsSync(victim)).toBe(false);
      expect(stdio.stderr()).not.toContain('No sandbox');
      await stdio.close();

      // No flag and no saved choice: the sandbox is on by default (the shared default server).
      const byDefault = await planted();
      const defaultVictim = path.join(byDefault.data.dir, 'victim.txt');
      expect(textOf(await call(byDefault.server.client, 'execute', { language: 'shell', code: write(defaultVictim) }))).toContain('exit 0');
      expect(existsSync(defaultVictim)).toBe(false);
      expect(byDefault.server.stderr()).not.toContain('No sandbox');

      // Twin: the same code, on the server started with --no-sandbox (the shared one), lets the write through.
      const unsandboxed = await keyed();
      const twinVictim = path.join(unsandboxed.data.dir, 'victim.txt');
      expect(textOf(await call(unsandboxed.server.client, 'execute', { language: 'shell', code: write(twinVictim) }))).toContain('exit 0');
      expect(readFileSync(twinVictim, 'utf8')).toBe('pwned\n');
      expect(unsandboxed.server.stderr()).toContain("--auto-run: MCP clients' code runs without asking. No sandbox");
    },
  );
});
