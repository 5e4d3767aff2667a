import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OI } from '../../support/cli-process';
import { node22Tools, type Node22Tools } from '../../support/node22-tools';
import { useOiMcp } from '../../support/oi-mcp';
import { processesWhere } from '../../support/proc-scan';

// `oi mcp` driven by the MCP Inspector (@modelcontextprotocol/inspector 2.x, on Node 22 from
// test/support/node22-tools.ts): its CLI (`inspector --cli`, one connection per command, as
// `npx @modelcontextprotocol/inspector --cli` runs it) and its connection CLI `mcpdo`, whose daemon keeps
// one connection across commands, which is what "state kept between calls" needs from a command line.
// A real client we did not write, started as a user would.

type Result = { code: number; stdout: string; stderr: string };

function runTool(tools: Node22Tools, script: string, args: string[], env: Record<string, string>): Promise<Result> {
  return new Promise((resolve) => {
    execFile(tools.node, [script, ...args], { env, encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** The inspector's own files (catalog, client storage, secrets, its daemon's socket) in the test's folder. */
function inspectorEnv(base: Record<string, string>, dir: string): Record<string, string> {
  const home = path.join(dir, 'inspector-home');
  mkdirSync(home, { recursive: true });
  return {
    ...base,
    HOME: home,
    MCP_INSPECTOR_SECRET_STORE: 'file',
    MCP_INSPECTOR_DAEMON_DIR: path.join(dir, 'mcpdo'),
    MCP_INSPECTOR_DAEMON_TOKEN: randomBytes(24).toString('base64url'),
  };
}

interface ToolResult {
  content: { type: string; text?: string; data?: string; mimeType?: string }[];
  isError?: boolean;
}

/** `--format json` prints `{"result": ...}` (the CLI) or the result itself (mcpdo, exit 5 for an isError result). */
function resultOf(out: Result): ToolResult {
  const parsed = JSON.parse(out.stdout) as { result?: ToolResult } & ToolResult;
  const result = parsed.result ?? parsed;
  expect(out.code, out.stderr).toBe(result.isError ? 5 : 0);
  return result;
}

const oi = useOiMcp();
// Registered after useOiMcp's, so it runs first: the daemon (and the oi mcp it started) ends before the folder goes.
let stopDaemon: (() => Promise<unknown>) | null = null;
afterEach(async () => {
  await stopDaemon?.();
  stopDaemon = null;
});

/** A client config file in the mcpServers shape Claude Desktop and Cursor read (docs/mcp.md), naming `oi mcp` twice. */
function clientConfig(dir: string, env: Record<string, string>): string {
  const config = path.join(dir, 'clients.json');
  const oi = { command: process.execPath, args: [...OI, 'mcp', '--workspace', path.join(dir, 'ws'), '--auto-run'], env };
  writeFileSync(config, JSON.stringify({ mcpServers: { oi, 'oi-again': oi } }));
  return config;
}

describe('oi mcp under the MCP Inspector (2.x, Node 22)', () => {
  it('--cli over stdio: lists the tools, runs code and returns a plot as image content', { timeout: 300_000 }, async () => {
    const tools = await node22Tools();
    const { dir, env } = oi.data('oi-mcp-inspector-');
    const config = clientConfig(dir, env);
    // The Inspector gives a server 30 s to answer initialize; each command here starts `oi mcp` anew,
    // and at load 20+ (seen: 24) a fresh start with its Python session can take longer. What is tested
    // is what comes back, not how soon.
    const timeout = ['--connect-timeout', '120000'];
    const cli = (args: string[]) =>
      runTool(
        tools,
        tools.inspector,
        ['--cli', '--config', config, '--server', 'oi', '--format', 'json', ...timeout, ...args],
        inspectorEnv(env, dir),
      );

    const listed = await cli(['--method', 'tools/list']);
    expect(listed.code, listed.stderr).toBe(0);
    const offered = (JSON.parse(listed.stdout) as { result: { tools: { name: string; inputSchema: { required?: string[] } }[] } }).result
      .tools;
    expect(offered.find((t) => t.name === 'execute')?.inputSchema.required).toEqual(['language', 'code']);
    expect(offered.map((t) => t.name)).toEqual(expect.arrayContaining(['list_sessions', 'interrupt', 'read_file', 'export_notebook']));

    // One call prints and plots (each command starts the Inspector, `oi mcp` and its Python anew: issue
    // 36): the text and the image come back as parts of one result.
    const plot = 'print(6 * 7)\nimport matplotlib\nmatplotlib.use("Agg")\nimport matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nplt.show()';
    const ran = resultOf(
      await cli([
        '--method',
        'tools/call',
        '--tool-name',
        'execute',
        '--tool-args-json',
        JSON.stringify({ language: 'python', code: plot }),
      ]),
    );
    expect(ran.isError ?? false).toBe(false);
    // The printed line first, then the figure's text form and the note that the image went to the client.
    expect(ran.content.filter((c) => c.type === 'text').map((c) => c.text?.split('\n')[0])).toEqual(['42']);
    const png = ran.content.find((c) => c.type === 'image');
    expect(png?.mimeType).toBe('image/png');
    // A real PNG: its signature, base64-encoded.
    expect(png?.data?.startsWith('iVBORw0KGgo')).toBe(true);
  });

  it(
    'mcpdo keeps one connection: a variable set by one execute is there for the next, and not in another connection',
    { timeout: 300_000 },
    async () => {
      const tools = await node22Tools();
      const data = oi.data('oi-mcp-inspector-');
      const env = inspectorEnv(data.env, data.dir);
      const config = clientConfig(data.dir, data.env);
      const mcpdo = (args: string[]) => runTool(tools, tools.mcpdo, ['--format', 'json', ...args], env);
      stopDaemon = async () => {
        await mcpdo(['daemon', 'stop']);
        // The daemon's `oi mcp` processes save their conversations as they end: the folder goes after them.
        const ws = path.join(data.dir, 'ws');
        await vi.waitFor(
          () => {
            const left = processesWhere((args) => args.includes(ws));
            if (left.length > 0) throw new Error(`oi mcp still running: ${left.join(', ')}`);
          },
          { timeout: 60_000, interval: 100 },
        );
      };
      const execute = (conn: string, code: string) =>
        mcpdo([`@${conn}`, 'tools/call', 'execute', JSON.stringify({ language: 'python', code })]);

      // Each config entry is a connection of its own (mcpdo names a connection after its entry).
      for (const name of ['oi', 'oi-again']) {
        const connected = await mcpdo(['--config', config, 'connect', name]);
        expect(connected.code, connected.stderr + connected.stdout).toBe(0);
      }
      expect(resultOf(await execute('oi', 'x = 41')).isError ?? false).toBe(false);
      expect(resultOf(await execute('oi', 'print(x + 1)'))).toEqual({ content: [{ type: 'text', text: '42' }] });
      // Twin: the other connection is another `oi mcp` process with sessions of its own.
      const other = resultOf(await execute('oi-again', 'print(x + 1)'));
      expect(other.isError).toBe(true);
      expect(other.content.map((c) => c.text).join('\n')).toContain("NameError: name 'x' is not defined");
    },
  );

  it('--cli reaches oi mcp --http with the token as a header, and is refused without it', { timeout: 300_000 }, async () => {
    const tools = await node22Tools();
    const { dir, env, ws } = oi.data('oi-mcp-inspector-');
    const http = await oi.http(['--workspace', ws, '--auto-run'], env, ws);
    const target = [http.url.href, '--transport', 'http', '--format', 'json'];
    const call = ['--method', 'tools/call', '--tool-name', 'execute', '--tool-arg', 'language=shell', '--tool-arg', 'code=echo over http'];
    const cli = (args: string[]) => runTool(tools, tools.inspector, ['--cli', ...args], inspectorEnv(env, dir));

    const ran = resultOf(await cli([...target, '--header', `Authorization: Bearer ${http.token}`, ...call]));
    expect(ran).toEqual({ content: [{ type: 'text', text: 'over http' }] });

    const refused = await cli([...target, '--stored-auth-only', ...call]);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).not.toContain('over http');
    expect(refused.stdout + refused.stderr).toContain('this server needs its token');
  });
});
