import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach } from 'vitest';
import { defaultSettings } from '@contract';
import { cliEnv, OI, tempDir } from './cli-process';
import { endWithTest } from './test-children';

// `oi mcp` as MCP clients run it: a real process started from source, spoken to by the SDK's own
// Client over stdio or Streamable HTTP. Python cells use Debian's /usr/bin/python3 (matplotlib).

export const SYSTEM_PYTHON = '/usr/bin/python3';

/** A data folder whose settings point Python cells at the system Python; returns the env for oi. */
export function mcpEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  writeFileSync(
    path.join(dataDir, 'settings.json'),
    JSON.stringify({ ...defaultSettings, exec: { ...defaultSettings.exec, pythonPath: SYSTEM_PYTHON } }),
  );
  return cliEnv(dataDir, extra);
}

export interface StdioServer {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  close(): Promise<void>;
}

/**
 * How long `initialize` may take. The SDK's default for a request is 60 s, and over stdio that clock
 * runs while `oi mcp` starts — from source (tsx compiling the app) on a loaded two-core machine that
 * is not a bound a test may depend on.
 */
const START_TIMEOUT_MS = 180_000;

/** `oi mcp <args>` started by the SDK's stdio client transport, connected. */
export async function connectStdio(
  args: string[],
  env: Record<string, string>,
  cwd: string,
  clientName = 'oi-test-client',
): Promise<StdioServer> {
  mkdirSync(cwd, { recursive: true });
  const transport = new StdioClientTransport({ command: process.execPath, args: [...OI, 'mcp', ...args], env, cwd, stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const client = new Client({ name: clientName, version: '1.0.0' });
  await client.connect(transport, { timeout: START_TIMEOUT_MS });
  const pid = transport.pid;
  // The SDK's transport owns the process; its pid is enough to end it should the test stop early.
  if (pid !== null) endWithTest({ pid, kill: (signal) => process.kill(pid, signal) });
  return { client, transport, stderr: () => err, close: () => client.close() };
}

export interface HttpServer {
  child: ChildProcess;
  url: URL;
  /** The token oi printed (or was given). */
  token: string;
  stderr: () => string;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** `oi mcp --http 0 <args>`: waits for the line naming its address (and the token it made). */
export async function startHttp(args: string[], env: Record<string, string>, cwd: string, token?: string): Promise<HttpServer> {
  mkdirSync(cwd, { recursive: true });
  const child = endWithTest(
    spawn(process.execPath, [...OI, 'mcp', '--http', '0', ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true }),
    { group: true },
  );
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<{ url: URL; token: string }>((resolve, reject) => {
    const look = () => {
      const at = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
      const made = /token: (\S+)/.exec(err);
      if (at?.[1] && (token || made?.[1])) resolve({ url: new URL(at[1]), token: token ?? made?.[1] ?? '' });
    };
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
      look();
    });
    void exited.then((code) => reject(new Error(`oi mcp exited (${code}) before listening:\n${err}`)));
  });
  const { url, token: used } = await ready;
  return {
    child,
    url,
    token: used,
    stderr: () => err,
    exited,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** An SDK client over Streamable HTTP sending these headers (the bearer token, or none). */
export async function connectHttp(url: URL, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'oi-test-http-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

/** A tool call's result with the SDK's own result type. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The text parts of a result, joined. */
export function textOf(result: CallToolResult): string {
  return result.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

/** A test's data folder for oi: its env (mcpEnv) and the workspace path the test runs in. */
export interface McpData {
  dir: string;
  ws: string;
  env: Record<string, string>;
}

export interface OiMcpScope {
  /** A fresh data folder (mcpEnv's settings, `extra` in the env), removed after the test. */
  data(prefix: string, extra?: Record<string, string>): McpData;
  /** connectStdio (as the client named `clientName`), closed after the test. */
  stdio(args: string[], env: Record<string, string>, cwd: string, clientName?: string): Promise<StdioServer>;
  /** startHttp, stopped after the test. */
  http(args: string[], env: Record<string, string>, cwd: string, token?: string): Promise<HttpServer>;
}

/**
 * What each test of the file starts of `oi mcp` (data folders, stdio and HTTP servers), ended after
 * it, the last started first: a test that fails halfway leaves no server or folder behind.
 */
export function useOiMcp(): OiMcpScope {
  const ends: Array<() => Promise<unknown> | void> = [];
  afterEach(async () => {
    for (const end of ends.splice(0).reverse()) await end();
  });
  return {
    data(prefix, extra = {}) {
      const made = tempDir(prefix);
      ends.push(() => made.remove());
      return { dir: made.dir, ws: path.join(made.dir, 'ws'), env: mcpEnv(made.dir, extra) };
    },
    async stdio(args, env, cwd, clientName) {
      const server = await connectStdio(args, env, cwd, clientName);
      ends.push(() => server.close().catch(() => undefined));
      return server;
    },
    async http(args, env, cwd, token) {
      const server = await startHttp(args, env, cwd, token);
      ends.push(() => server.stop());
      return server;
    },
  };
}

/** The process id of the client's Python session. */
export async function pythonPid(client: Client): Promise<number> {
  return Number(textOf(await call(client, 'execute', { language: 'python', code: 'import os; print(os.getpid())' })));
}

/** Whether a process is still there (signal 0 checks without sending anything). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
