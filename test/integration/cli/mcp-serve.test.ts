import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { runOi } from '../../support/cli-process';
import { alive, call, connectHttp, pythonPid, textOf, useOiMcp } from '../../support/oi-mcp';

// `oi mcp` driven by the SDK's own MCP client, as Claude Desktop, Cursor or goose would start it: a
// real process, the app's real engine, Debian's Python with matplotlib.

const TOOLS = ['execute', 'export_notebook', 'interrupt', 'list_files', 'list_sessions', 'read_file', 'restart_session', 'write_file'];
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

const oi = useOiMcp();
const setup = () => oi.data('oi-mcp-');

describe('oi mcp over stdio', () => {
  it(
    'keeps state between executes, returns plots as images and failures as errors, and exports the runs',
    { timeout: 180_000 },
    async () => {
      const { env, ws, dir } = setup();
      const stdio = await oi.stdio(['--workspace', ws, '--auto-run'], env, ws);
      const { client } = stdio;
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOLS);

      expect(textOf(await call(client, 'execute', { language: 'python', code: 'x = 41' }))).not.toContain('Error');
      const next = await call(client, 'execute', { language: 'python', code: 'print(x + 1)' });
      expect(next.isError).toBeFalsy();
      expect(textOf(next)).toBe('42');

      const plot = await call(client, 'execute', {
        language: 'python',
        code: 'import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.show()',
      });
      expect(plot.isError, textOf(plot)).toBeFalsy();
      const image = plot.content.find((c) => c.type === 'image');
      expect(image?.type === 'image' && image.mimeType).toBe('image/png');
      expect(image?.type === 'image' && Buffer.from(image.data, 'base64').subarray(0, 4)).toEqual(PNG_MAGIC);

      const failed = await call(client, 'execute', { language: 'python', code: '1/0' });
      expect(failed.isError).toBe(true);
      expect(textOf(failed)).toMatch(/Traceback[\s\S]*ZeroDivisionError: division by zero/);

      const shell = await call(client, 'execute', { language: 'shell', code: 'cd sub 2>/dev/null || mkdir sub && cd sub; pwd' });
      expect(textOf(shell)).toBe(path.join(await realWs(ws), 'sub'));
      expect(textOf(await call(client, 'execute', { language: 'shell', code: 'pwd' }))).toBe(path.join(await realWs(ws), 'sub'));

      const sessions = JSON.parse(textOf(await call(client, 'list_sessions'))) as {
        sessions: { language: string; runs: number; running: boolean; lastStatus: string }[];
        languages: { name: string; available: boolean }[];
      };
      expect(sessions.sessions).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ language: 'python', runs: 4, running: false, lastStatus: 'failed' }),
          expect.objectContaining({ language: 'shell', runs: 2, running: false, lastStatus: 'done' }),
        ]),
      );
      expect(sessions.languages.find((l) => l.name === 'python')?.available).toBe(true);

      const notebook = JSON.parse(textOf(await call(client, 'export_notebook'))) as {
        nbformat: number;
        cells: { cell_type: string; source: string | string[]; outputs?: { output_type: string; data?: Record<string, unknown> }[] }[];
      };
      expect(notebook.nbformat).toBe(4);
      const sources = notebook.cells.map((c) => (Array.isArray(c.source) ? c.source.join('') : c.source));
      expect(sources.slice(0, 2)).toEqual(['x = 41', 'print(x + 1)']);
      expect(notebook.cells[2]?.outputs?.some((o) => o.output_type === 'display_data' && typeof o.data?.['image/png'] === 'string')).toBe(
        true,
      );

      // The runs are a conversation of the data folder, named for the client: the desktop app lists it.
      const saved = readdirSync(path.join(dir, 'conversations')).filter((n) => n.endsWith('.json'));
      expect(saved).toHaveLength(1);
      expect(JSON.parse(readFileSync(path.join(dir, 'conversations', saved[0]!), 'utf8'))).toMatchObject({
        title: 'MCP: oi-test-client',
        workspace: await realWs(ws),
      });

      // A restart ends the session: the variable is gone.
      expect(textOf(await call(client, 'restart_session', { language: 'python' }))).toContain('restarted');
      const gone = await call(client, 'execute', { language: 'python', code: 'x' });
      expect(gone.isError).toBe(true);
      expect(textOf(gone)).toContain("NameError: name 'x' is not defined");

      // Saves after the first are written behind the calls (issue 37); once the client has gone,
      // every run is in the saved conversation.
      await stdio.close();
      const cells = (): number =>
        (JSON.parse(readFileSync(path.join(dir, 'conversations', saved[0]!), 'utf8')) as { items: { kind: string }[] }).items.filter(
          (i) => i.kind === 'cell',
        ).length;
      await expect.poll(cells, { timeout: 10_000 }).toBe(7);
    },
  );

  it('interrupts a run while it goes on; the session and its variables survive', { timeout: 180_000 }, async () => {
    const { env, ws } = setup();
    // --no-sandbox: the test follows the session's process by its pid, which the sandbox's own PID namespace hides.
    const stdio = await oi.stdio(['--workspace', ws, '--auto-run', '--no-sandbox'], env, ws);
    const { client } = stdio;
    await call(client, 'execute', { language: 'python', code: 'y = 7' });
    const long = call(client, 'execute', { language: 'python', code: 'import time\nwhile True:\n    time.sleep(0.05)' });
    await expect
      .poll(async () => JSON.parse(textOf(await call(client, 'list_sessions'))) as { sessions: { language: string; running: boolean }[] }, {
        timeout: 60_000,
      })
      .toMatchObject({ sessions: [{ language: 'python', running: true }] });
    expect(textOf(await call(client, 'interrupt', { language: 'python' }))).toBe('Interrupted: python.');
    const stopped = await long;
    expect(stopped.isError).toBe(true);
    expect(textOf(stopped)).toMatch(/^\[interrupted\][\s\S]*KeyboardInterrupt/);
    expect(textOf(await call(client, 'execute', { language: 'python', code: 'print(y * 6)' }))).toBe('42');
    expect(textOf(await call(client, 'interrupt', {}))).toBe('Nothing was running.');

    // The client cancelling its own request (MCP's notifications/cancelled) interrupts the run too.
    const cancel = new AbortController();
    const cancelled = client.callTool({ name: 'execute', arguments: { language: 'shell', code: 'sleep 600' } }, undefined, {
      signal: cancel.signal,
    });
    await expect
      .poll(async () => textOf(await call(client, 'list_sessions')), { timeout: 60_000 })
      .toMatch(/"language": "shell",\s+"runs": 0,\s+"running": true/);
    cancel.abort();
    await expect(cancelled).rejects.toThrow();
    await expect
      .poll(async () => textOf(await call(client, 'list_sessions')), { timeout: 60_000 })
      .toMatch(/"language": "shell",\s+"runs": 1,\s+"running": false,\s+"lastStatus": "interrupted"/);
    expect(textOf(await call(client, 'execute', { language: 'python', code: 'print(y)' }))).toBe('7');

    // The client closing stdin (how it says goodbye) ends the server and the sessions it started.
    const python = await pythonPid(client);
    const server = stdio.transport.pid;
    await stdio.close();
    await expect.poll(() => alive(python), { timeout: 60_000 }).toBe(false);
    await expect.poll(() => server !== null && alive(server), { timeout: 60_000 }).toBe(false);
  });

  it(
    'refuses execute and write_file without --auto-run and with no desktop app, saying how to allow them; reading still works',
    { timeout: 120_000 },
    async () => {
      const { env, ws } = setup();
      let stdio = await oi.stdio(['--workspace', ws], env, ws);
      writeFileSync(path.join(ws, 'notes.txt'), 'hello from the workspace');
      const { client } = stdio;
      const refused = await call(client, 'execute', { language: 'shell', code: 'touch ran.txt' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/did not run code: it asked the desktop app, but the desktop app is not running[\s\S]*--auto-run/);
      const write = await call(client, 'write_file', { path: 'written.txt', content: 'x' });
      expect(write.isError).toBe(true);
      expect(textOf(write)).toContain('--auto-run');
      expect(existsSync(path.join(ws, 'ran.txt'))).toBe(false);
      expect(existsSync(path.join(ws, 'written.txt'))).toBe(false);
      expect(stdio.stderr()).toContain(
        'ask the desktop app when it runs (and are refused when it does not), unless started with --auto-run',
      );
      // Read-only tools are allowed.
      expect(textOf(await call(client, 'read_file', { path: 'notes.txt' }))).toBe('hello from the workspace');
      expect(JSON.parse(textOf(await call(client, 'list_files')))).toMatchObject({ entries: [{ path: 'notes.txt', kind: 'file' }] });
      await stdio.close();

      // The twin: the same calls with --auto-run do run and write.
      stdio = await oi.stdio(['--workspace', ws, '--auto-run'], env, ws);
      expect((await call(stdio.client, 'execute', { language: 'shell', code: 'touch ran.txt' })).isError).toBeFalsy();
      expect((await call(stdio.client, 'write_file', { path: 'deep/er/written.txt', content: 'x' })).isError).toBeFalsy();
      expect(existsSync(path.join(ws, 'ran.txt'))).toBe(true);
      expect(readFileSync(path.join(ws, 'deep/er/written.txt'), 'utf8')).toBe('x');
    },
  );
});

describe('oi mcp --http', () => {
  it(
    'serves Streamable HTTP on 127.0.0.1 to a client with the token it printed, each client with its own sessions',
    { timeout: 180_000 },
    async () => {
      const { env, ws } = setup();
      // --no-sandbox: the test follows each client's Python by its pid, which the sandbox's PID namespace hides.
      const http = await oi.http(['--workspace', ws, '--auto-run', '--no-sandbox'], env, ws);
      expect(http.url.hostname).toBe('127.0.0.1');
      const headers = { Authorization: `Bearer ${http.token}` };
      const first = await connectHttp(http.url, headers);
      expect((await first.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOLS);
      await call(first, 'execute', { language: 'python', code: 'x = 41' });
      expect(textOf(await call(first, 'execute', { language: 'python', code: 'print(x + 1)' }))).toBe('42');

      const second = await connectHttp(http.url, headers);
      const other = await call(second, 'execute', { language: 'python', code: 'x' });
      expect(other.isError).toBe(true);
      expect(textOf(other)).toContain("NameError: name 'x' is not defined");

      // A client ending its MCP session (DELETE) ends its language sessions; the other client's live on.
      const firstPython = await pythonPid(first);
      const secondPython = await pythonPid(second);
      await (first.transport as StreamableHTTPClientTransport).terminateSession();
      await expect.poll(() => alive(firstPython), { timeout: 60_000 }).toBe(false);
      expect(alive(secondPython)).toBe(true);
      await first.close();
      await second.close();
    },
  );

  it('refuses a port in use and a workspace that is a file, saying which, with exit code 2', { timeout: 120_000 }, async () => {
    const { env, ws, dir } = setup();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const busy = await runOi(['mcp', '--http', String(port), '--workspace', ws], env);
      expect(busy.code).toBe(2);
      expect(busy.stderr).toContain(`oi mcp: cannot listen on 127.0.0.1:${port}: the port is in use`);
    } finally {
      taken.close();
    }
    const file = path.join(dir, 'a-file');
    writeFileSync(file, 'not a folder');
    const notFolder = await runOi(['mcp', '--workspace', file], env);
    expect(notFolder.code).toBe(2);
    expect(notFolder.stderr).toMatch(/^oi mcp: .*a-file.* not a folder/m);
  });

  it('takes its token from OI_MCP_TOKEN, and the code it runs never sees it', { timeout: 120_000 }, async () => {
    const token = 'a-token-from-the-environment-0123456789';
    const { ws, env: withToken } = oi.data('oi-mcp-', { OI_MCP_TOKEN: token });
    const http = await oi.http(['--workspace', ws, '--auto-run'], withToken, ws, token);
    expect(http.stderr()).not.toContain(token);
    const client = await connectHttp(http.url, { Authorization: `Bearer ${token}` });
    const env = textOf(await call(client, 'execute', { language: 'shell', code: 'env' }));
    expect(env).toContain('PATH=');
    expect(env).not.toContain(token);
    await client.close();
  });
});

async function realWs(ws: string): Promise<string> {
  const { realpath } = await import('node:fs/promises');
  return realpath(ws);
}
