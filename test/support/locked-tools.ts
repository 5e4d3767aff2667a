import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// npm packages some tests run that no developer should get with `npm ci` (large, or for one platform):
// installed from a lock file of their own (test/node22-tools/, test/acp-agents/) into a cache folder
// OUTSIDE the repository and its node_modules, named after the lock file's hash so a changed lock
// installs afresh. .ci/run installs them before the suite; a test that finds them missing installs
// them (npm only).

function cacheRoot(): string {
  return (
    process.env.OI_TEST_TOOLS_DIR ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'oi-desktop-test-tools')
  );
}

/** Where the packages of `lockDir` are (or will be) installed: `<cache>/<prefix>-<hash of the lock>`. */
export function lockedToolsDir(lockDir: string, prefix: string): string {
  const hash = createHash('sha256')
    .update(readFileSync(path.join(lockDir, 'package.json')))
    .update(readFileSync(path.join(lockDir, 'package-lock.json')))
    .digest('hex')
    .slice(0, 16);
  return path.join(cacheRoot(), `${prefix}-${hash}`);
}

export function run(cmd: string, args: string[], cwd: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: stdout + stderr }),
    );
  });
}

const installed = (dir: string) => existsSync(path.join(dir, '.installed'));

/**
 * Installs the lock's packages once (several test workers may ask at the same moment: one installs into
 * a staging folder under a lock folder, the others wait for the `.installed` mark) and names the folder.
 */
export async function installLocked(lockDir: string, prefix: string, what: string): Promise<string> {
  const dir = lockedToolsDir(lockDir, prefix);
  if (installed(dir)) return dir;
  mkdirSync(path.dirname(dir), { recursive: true });
  const lock = `${dir}.lock`;
  for (;;) {
    if (installed(dir)) return dir;
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
    if (installed(dir)) return dir;
    const staging = `${dir}.staging-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    copyFileSync(path.join(lockDir, 'package.json'), path.join(staging, 'package.json'));
    copyFileSync(path.join(lockDir, 'package-lock.json'), path.join(staging, 'package-lock.json'));
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const done = await run(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error', '--engine-strict=false'], staging);
    if (done.code !== 0) throw new Error(`installing ${what} failed (npm ci in ${staging}):\n${done.out}`);
    writeFileSync(path.join(staging, '.installed'), new Date().toISOString());
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
    return dir;
  } finally {
    rmdirSync(lock);
  }
}
