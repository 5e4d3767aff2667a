import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxSettings } from '@contract';
import { bubblewrapArgs } from '../../../src-main/core/exec/sandbox/bubblewrap-args';
import { planSandbox, readablePathsFor } from '../../../src-main/core/exec/sandbox/sandbox-plan';
import { SANDBOX, startSandboxTarget, stdoutOf, type SandboxTarget } from './support/sandbox-target';

// Issue 17, finding 11, the mounts: every other protection in bubblewrap-args.ts gets the attack it
// stops, run through the engine (which must stop it), and a twin — bubblewrap started with the
// engine's own arguments for the same plan minus that one protection (or with it made writable),
// which must let the attack through. Found missing by test/security/mutation-check.ts.

const BWRAP = '/usr/bin/bwrap';
const SECRET = `mount-secret-${process.pid}`;

function run(file: string, args: string[]): Promise<string> {
  return new Promise((done) => execFile(file, args, { timeout: 60_000 }, (_err, stdout, stderr) => done(`${stdout}${stderr}`)));
}

// No /dev/null in these: without --dev the host's /dev/null cannot be opened for writing, and a
// failed redirection would look like a refused attack.

/** Shell code that reads `path` and prints `READ <contents>` or `unreadable`. */
const readAttempt = (path: string): string => `if [ -r ${path} ]; then echo "READ $(cat ${path})"; else echo unreadable; fi`;

/** Shell code that writes into `folder` and prints `WROTE` or `refused`. */
const writeAttempt = (folder: string): string => `if (echo escaped > ${folder}/planted) 2>&1; then echo WROTE; else echo refused; fi`;

describe('each mount and lifetime rule of the sandbox stops its attack (issue 17 #11)', () => {
  let t: SandboxTarget;
  beforeAll(async () => {
    t = await startSandboxTarget();
  });
  afterAll(async () => t?.close());

  /**
   * `code` run by sh under bubblewrap with the engine's arguments for `settings` (and `python`'s
   * folders, as a session gets them), changed by `weaken`.
   */
  async function weakened(
    code: string,
    weaken: (args: string[]) => void,
    settings: SandboxSettings = SANDBOX,
    python?: string,
  ): Promise<string> {
    const privateDir = await mkdtemp(join(t.tmpRoot, 'twin-'));
    const plan = planSandbox({ settings, workspace: t.workspace, privateDir, home: t.home });
    const readable = python ? readablePathsFor(plan, python, []) : [];
    const args = bubblewrapArgs(plan, { file: '/bin/sh', args: ['-c', code] }, readable);
    weaken(args);
    return run(BWRAP, args);
  }

  /** Removes `flag value` (or `flag` alone when value is null); fails if the engine does not pass it. */
  const without = (flag: string, value: string | null) => (args: string[]) => {
    const at = args.findIndex((a, i) => a === flag && (value === null || args[i + 1] === value));
    expect(at, `${flag} ${value ?? ''} is in the engine's arguments`).toBeGreaterThan(-1);
    args.splice(at, value === null ? 1 : 2);
  };

  /** Turns `--ro-bind[-try] path path` into its writable form. */
  const writable = (path: string) => (args: string[]) => {
    const at = args.findIndex((a, i) => (a === '--ro-bind' || a === '--ro-bind-try') && args[i + 1] === path);
    expect(at, `${path} is bound read-only`).toBeGreaterThan(-1);
    args[at] = args[at] === '--ro-bind' ? '--bind' : '--bind-try';
  };

  it("--dev: the sandbox cannot read the host's /dev/shm", async () => {
    const file = `/dev/shm/oi-attack-${process.pid}`;
    writeFileSync(file, SECRET);
    try {
      const result = stdoutOf(await t.run('dev', 'shell', readAttempt(file), { sandbox: SANDBOX }));
      expect(result).toContain('unreadable');
      expect(result).not.toContain(SECRET);
      const twin = await weakened(readAttempt(file), without('--dev', '/dev'));
      expect(twin).toContain(`READ ${SECRET}`);
    } finally {
      rmSync(file, { force: true });
    }
  });

  it("--proc: the sandbox cannot see the host's processes or their command lines", async () => {
    // A host process with a secret on its command line, as programs started with --token=… have.
    // Python keeps its arguments as given (a shell may exec its last command and drop them).
    const holder: ChildProcess = spawn('/usr/bin/python3', ['-c', 'import time; time.sleep(600)', `${SECRET}-argv`], {
      stdio: 'ignore',
      detached: true,
    });
    try {
      await expect.poll(() => existsSync(`/proc/${holder.pid}/cmdline`)).toBe(true);
      // The pattern does not match itself, so the scanning grep's own command line is not a hit.
      const scan = `found=$(cat /proc/[0-9]*/cmdline 2>&1 | tr '\\0' ' ' | grep -o 'mount-secre[t]-[0-9]*-argv'); if [ -n "$found" ]; then echo "READ $found"; else echo unreadable; fi`;
      const result = stdoutOf(await t.run('proc', 'shell', scan, { sandbox: SANDBOX }));
      expect(result).toContain('unreadable');
      expect(result).not.toContain(SECRET);
      const twin = await weakened(scan, without('--proc', '/proc'));
      expect(twin).toContain(`READ ${SECRET}-argv`);
    } finally {
      if (holder.pid) process.kill(-holder.pid, 'SIGKILL');
    }
  });

  it("--tmpfs /var/tmp: the sandbox cannot read the host's /var/tmp", async () => {
    const file = `/var/tmp/oi-attack-${process.pid}`;
    writeFileSync(file, SECRET);
    try {
      const result = stdoutOf(await t.run('var-tmp', 'shell', readAttempt(file), { sandbox: SANDBOX }));
      expect(result).toContain('unreadable');
      const twin = await weakened(readAttempt(file), without('--tmpfs', '/var/tmp'));
      expect(twin).toContain(`READ ${SECRET}`);
    } finally {
      rmSync(file, { force: true });
    }
  });

  it('a read-only extra path cannot be written', async () => {
    const extra = join(t.home, 'shared-data');
    mkdirSync(extra, { recursive: true });
    const settings = { ...SANDBOX, extraPaths: [extra] };
    const result = stdoutOf(
      await t.run('extra-ro', 'shell', `ls ${extra} >/dev/null && echo visible; ${writeAttempt(extra)}`, { sandbox: settings }),
    );
    expect(result).toContain('visible');
    expect(result).toContain('refused');
    expect(existsSync(join(extra, 'planted'))).toBe(false);
    const twin = await weakened(writeAttempt(extra), writable(extra), settings);
    expect(twin).toContain('WROTE');
    expect(existsSync(join(extra, 'planted'))).toBe(true);
  });

  it('a runtime shown from inside the hidden home cannot be written (the app runs it outside too)', async () => {
    // A Python of the user's own in the home (as pyenv or a venv would put it): the sandbox shows its
    // folder again so the session can start, read-only.
    const venv = join(t.home, '.venvs', 'tools');
    await run('/usr/bin/python3', ['-m', 'venv', '--without-pip', venv]);
    const python = join(venv, 'bin', 'python');
    expect(existsSync(python)).toBe(true);
    const code = `import os\ntry:\n    open(${JSON.stringify(join(venv, 'bin', 'planted'))}, "w").write("x")\n    print("WROTE")\nexcept OSError as e:\n    print("refused", e.strerror)\nprint("exists", os.path.exists(${JSON.stringify(python)}))`;
    const result = stdoutOf(await t.run('runtime-ro', 'python', code, { sandbox: SANDBOX, settings: { pythonPath: python } }));
    expect(result).toContain('exists True');
    expect(result).toContain('refused');
    expect(existsSync(join(venv, 'bin', 'planted'))).toBe(false);
    const twin = await weakened(writeAttempt(join(venv, 'bin')), writable(venv), SANDBOX, python);
    expect(twin).toContain('WROTE');
    expect(existsSync(join(venv, 'bin', 'planted'))).toBe(true);
  });

  it('--die-with-parent: a daemon the code leaves behind dies when the app does', async () => {
    // Bubblewrap with the engine's arguments under a parent that is then killed, as the app may be.
    // The code detaches a process into a session of its own (immune to the terminal's hang-up).
    // The twin, without the flag, runs beside it: once the protected one's daemon is gone, the
    // twin's is still there — nothing would ever end it.
    const daemon = (n: number): string => `600.${process.pid}${n}`;
    const code = (n: number): string => `setsid /bin/sleep ${daemon(n)} & echo started; wait`;
    const underParent = (args: string[]): ChildProcess =>
      spawn('/bin/sh', ['-c', '"$@" & wait', 'sh', BWRAP, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    const argsFor = async (n: number, weaken: (args: string[]) => void): Promise<string[]> => {
      const privateDir = await mkdtemp(join(t.tmpRoot, 'twin-'));
      const args = bubblewrapArgs(
        planSandbox({ settings: SANDBOX, workspace: t.workspace, privateDir, home: t.home }),
        { file: '/bin/sh', args: ['-c', code(n)] },
        [],
      );
      weaken(args);
      return args;
    };
    const protectedParent = underParent(await argsFor(1, () => undefined));
    const twinParent = underParent(await argsFor(2, without('--die-with-parent', null)));
    try {
      await expect.poll(() => [sleepers(daemon(1)).length, sleepers(daemon(2)).length]).toEqual([1, 1]);
      protectedParent.kill('SIGKILL');
      twinParent.kill('SIGKILL');
      await expect.poll(() => sleepers(daemon(1)).length).toBe(0);
      expect(sleepers(daemon(2))).toHaveLength(1);
    } finally {
      for (const pid of [...sleepers(daemon(1)), ...sleepers(daemon(2))]) process.kill(pid, 'SIGKILL');
    }
  });
});

/** Host pids of `/bin/sleep <duration>` processes. */
function sleepers(duration: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8') === `/bin/sleep\0${duration}\0`) found.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}
