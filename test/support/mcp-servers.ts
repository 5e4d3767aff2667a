import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import type { McpServerConfig } from '@contract';
import { endWithTest } from './test-children';

// The reference MCP servers from npm (devDependencies), run by this node: no network, no mocks.

const MODULES = path.resolve(import.meta.dirname, '../../node_modules/@modelcontextprotocol');
export const EVERYTHING = path.join(MODULES, 'server-everything/dist/index.js');
export const FILESYSTEM = path.join(MODULES, 'server-filesystem/dist/index.js');

export const everythingStdio = (extra: Partial<Extract<McpServerConfig, { command: string }>> = {}): McpServerConfig => ({
  command: process.execPath,
  args: [EVERYTHING, 'stdio'],
  ...extra,
});

export const filesystemStdio = (dir: string): McpServerConfig => ({ command: process.execPath, args: [FILESYSTEM, dir] });

export interface HttpServer {
  url: string;
  child: ChildProcess;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * server-everything over HTTP: `streamableHttp` serves /mcp, `sse` the old transport at /sse. Resolves
 * once it says it listens (it logs that on stderr), so a loaded machine only makes this slower.
 */
export async function startEverythingHttp(mode: 'streamableHttp' | 'sse'): Promise<HttpServer> {
  const port = await freePort();
  const child = endWithTest(
    spawn(process.execPath, [EVERYTHING, mode], {
      env: { PATH: process.env.PATH ?? '', PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (/listening|running on/i.test(log)) resolve();
    };
    child.stderr?.on('data', onData);
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server-everything ${mode} exited (${code}): ${log}`)));
  });
  return {
    url: `http://127.0.0.1:${port}${mode === 'sse' ? '/sse' : '/mcp'}`,
    child,
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

/** test/fixtures/mcp/hostile-server.mjs: a real SDK server that misbehaves in the way `mode` names. */
export const HOSTILE = path.resolve(import.meta.dirname, '../fixtures/mcp/hostile-server.mjs');

export const hostileStdio = (mode: 'collide' | 'schema' | 'inject' | 'hang' | 'crash' | 'huge' | 'readonly' | 'ui'): McpServerConfig => ({
  command: process.execPath,
  args: [HOSTILE, mode],
});

/** test/fixtures/mcp/ui-server.mjs: a real SDK server whose tools answer with interactive UI resources. */
export const UI_SERVER = path.resolve(import.meta.dirname, '../fixtures/mcp/ui-server.mjs');

export const uiStdio = (extra: Partial<Extract<McpServerConfig, { command: string }>> = {}): McpServerConfig => ({
  command: process.execPath,
  args: [UI_SERVER],
  ...extra,
});
