import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The permission half of the folder check. Root may read and write anything, so when the tests run
// as root the check runs in a child process as `nobody`; otherwise as the same user.

const REPO = path.resolve(import.meta.dirname, '../../..');
const SCRIPT = path.join(import.meta.dirname, 'support', 'check-folder.ts');
const NOBODY = 65534;

function checkAsUser(folder: string): Promise<{ folder?: string; error?: string }> {
  const asRoot = process.getuid?.() === 0;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', SCRIPT, folder, path.join(os.tmpdir(), 'oi-perm-no-data-dir')],
      {
        cwd: REPO,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TSX_TSCONFIG_PATH: path.join(REPO, 'tsconfig.node.json'), HOME: os.tmpdir() },
        ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
      },
      (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout) as { folder?: string; error?: string }),
    );
  });
}

describe.skipIf(process.platform === 'win32')('a chosen folder this user cannot use', () => {
  let base: string;
  beforeAll(() => {
    base = mkdtempSync(path.join(os.tmpdir(), 'oi-perm-'));
    chmodSync(base, 0o755);
    for (const [name, mode] of [
      ['usable', 0o777],
      ['read-only', 0o555],
      ['write-only', 0o333],
      ['locked', 0o777],
    ] as const) {
      mkdirSync(path.join(base, name));
      chmodSync(path.join(base, name), mode);
    }
    mkdirSync(path.join(base, 'locked', 'inner'));
    chmodSync(path.join(base, 'locked'), 0o000);
  });
  afterAll(() => {
    chmodSync(path.join(base, 'locked'), 0o755);
    rmSync(base, { recursive: true, force: true });
  });

  it('accepts a folder it can read, write and enter', async () => {
    expect(await checkAsUser(path.join(base, 'usable'))).toEqual({ folder: path.join(base, 'usable') });
  });

  it('refuses a folder it cannot write, read, or reach, naming what is missing', async () => {
    expect((await checkAsUser(path.join(base, 'read-only'))).error).toMatch(/read-only cannot be written by this user/);
    expect((await checkAsUser(path.join(base, 'write-only'))).error).toMatch(/write-only cannot be read by this user/);
    expect((await checkAsUser(path.join(base, 'locked', 'inner'))).error).toMatch(
      /inner cannot be reached: permission denied on the way to it/,
    );
  });
});
