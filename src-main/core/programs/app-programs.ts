import { execFile, spawn, type ChildProcessWithoutNullStreams, type SpawnOptionsWithoutStdio } from 'node:child_process';
import { accessSync, constants, realpathSync } from 'node:fs';
import os from 'node:os';
import { delimiter, isAbsolute, join, sep } from 'node:path';

// The one way the app starts a program of its own outside any sandbox — git for checkpoints, stty, sudo
// -K, ps, prlimit, mkfifo, bwrap, the file manager (lint allows child_process here and in the few files
// named in eslint.config.js, each for a stated reason). A program started by bare name is looked up on
// a PATH, and PATH can reach into a workspace: a `.venv/bin` the person activated, a relative entry
// ("." — the folder the CLI started in), a link into one. Sandboxed code can write there, and the app
// would then run what it planted, as the person, outside the sandbox. So each program is resolved once
// to an absolute path in a system folder, or in an absolute PATH entry outside the places code the app
// runs can write (the home folder, with every workspace and the data folder under it, and the temp
// folders), followed to its real file, which must lie outside them too; and it runs with a small fixed
// environment (system folders for PATH) in the file system's root unless it needs a folder.

const SYSTEM_DIRS =
  process.platform === 'win32'
    ? [process.env.SystemRoot ?? 'C:\\Windows', join(process.env.SystemRoot ?? 'C:\\Windows', 'System32')]
    : ['/usr/bin', '/bin', '/usr/sbin', '/sbin', '/usr/local/bin', '/opt/homebrew/bin'];

/** PATH for the app's own programs: the system folders only (git, for one, starts helpers by name). */
export const SYSTEM_PATH = SYSTEM_DIRS.join(delimiter);

const found = new Map<string, string | null>();

function untrustedRoots(): string[] {
  return [os.homedir(), os.tmpdir(), '/tmp', '/var/tmp', '/dev/shm'].filter((d) => d && d !== sep);
}

function inside(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep));
}

/**
 * Absolute path of one of the app's programs, or null when none is installed where the app may take
 * it from. `path` is the PATH to consider besides the system folders (default: the app's own).
 */
export function systemProgram(name: string, path = process.env.PATH ?? ''): string | null {
  const key = `${name}\0${path}`;
  if (found.has(key)) return found.get(key) ?? null;
  const roots = untrustedRoots();
  const dirs = [...SYSTEM_DIRS, ...path.split(delimiter).filter((d) => d && isAbsolute(d) && !inside(d, roots))];
  let result: string | null = null;
  for (const dir of dirs) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      // A link into a workspace (or a temp folder) is not a system program, wherever it sits.
      if (inside(realpathSync(candidate), roots)) continue;
      result = candidate;
      break;
    } catch {
      // Not here.
    }
  }
  found.set(key, result);
  return result;
}

export interface ProgramResult {
  ok: boolean;
  stdout: string;
  stderr: string;
}

export interface RunProgramOptions {
  /** Default: PATH of the system folders and LANG=C only (no keys, nothing of the workspace's). */
  env?: NodeJS.ProcessEnv;
  /** Default: the file system's root, never a workspace by accident. */
  cwd?: string;
  timeoutMs?: number;
  maxBuffer?: number;
}

const BASE_ENV: NodeJS.ProcessEnv = { PATH: SYSTEM_PATH, LANG: 'C' };

/** Runs one of the app's programs to its end; a program that is not installed is a failed run saying so. */
export async function runAppProgram(name: string, args: string[], options: RunProgramOptions = {}): Promise<ProgramResult> {
  const result = await runAppProgramBytes(name, args, options);
  return { ok: result.ok, stdout: result.stdout.toString(), stderr: result.stderr };
}

/** As runAppProgram, for a program whose output is binary: stdout as bytes. */
export function runAppProgramBytes(
  name: string,
  args: string[],
  options: RunProgramOptions = {},
): Promise<{ ok: boolean; stdout: Buffer; stderr: string }> {
  const file = systemProgram(name);
  if (!file) return Promise.resolve({ ok: false, stdout: Buffer.alloc(0), stderr: notInstalled(name) });
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        env: options.env ?? BASE_ENV,
        cwd: options.cwd ?? sep,
        timeout: options.timeoutMs ?? 10_000,
        maxBuffer: options.maxBuffer ?? 16 * 1024 * 1024,
        encoding: 'buffer',
      },
      (err, stdout, stderr) => resolve({ ok: !err, stdout, stderr: stderr.toString() }),
    );
  });
}

/**
 * As runAppProgramBytes, with stdout going straight into a file the caller opened (`fd`) rather than
 * through a pipe: xwd's 8 MB screen capture then is one write that never waits for the app to read
 * 64 KB at a time (docs/computer-use.md#speed). Resolves when the program has ended, with its stderr.
 */
export function runAppProgramToFile(name: string, args: string[], fd: number, options: RunProgramOptions = {}): Promise<ProgramResult> {
  const file = systemProgram(name);
  if (!file) return Promise.resolve({ ok: false, stdout: '', stderr: notInstalled(name) });
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd: options.cwd ?? sep, env: options.env ?? BASE_ENV, stdio: ['ignore', fd, 'pipe'] });
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => (stderr = (stderr + text).slice(0, 4096)));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 10_000);
    child.once('error', (err) => {
      clearTimeout(timer);
      resolve({ ok: false, stdout: '', stderr: err.message });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ ok: code === 0, stdout: '', stderr: signal ? `${stderr}\n(ended by ${signal})` : stderr });
    });
  });
}

/** Starts one of the app's programs with its streams piped (git); throws when it is not installed. */
export function startAppProgram(name: string, args: string[], options: SpawnOptionsWithoutStdio = {}): ChildProcessWithoutNullStreams {
  const file = systemProgram(name);
  if (!file) throw new Error(notInstalled(name));
  return spawn(file, args, { cwd: sep, ...options, env: options.env ?? BASE_ENV, stdio: 'pipe' });
}

/**
 * Starts one of the app's programs on its own (the file manager), not waited for; throws when it is not
 * installed. `env`: what it gets instead of this process's environment (PATH is always the system's).
 */
export function launchAppProgram(name: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const file = systemProgram(name);
  if (!file) return Promise.reject(new Error(notInstalled(name)));
  return new Promise((resolve, reject) => {
    // The desktop's own environment (DISPLAY, DBUS_SESSION_BUS_ADDRESS…), PATH aside.
    const child = spawn(file, args, { cwd: sep, detached: true, stdio: 'ignore', env: { ...env, PATH: SYSTEM_PATH } });
    child.once('error', reject);
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}

/**
 * PATH for a command the person configured (a hook): the system folders, then the absolute entries of
 * `path` outside the home and temp folders — the rule above, so a hook's `python3` is never one planted
 * in an activated `.venv/bin` of a workspace. A program in the home folder is named by its full path.
 */
export function personPath(path = process.env.PATH ?? ''): string {
  const roots = untrustedRoots();
  const extra = path.split(delimiter).filter((d) => d && isAbsolute(d) && !inside(d, roots) && !SYSTEM_DIRS.includes(d));
  return [...SYSTEM_DIRS, ...extra].join(delimiter);
}

/** `sh -c command` with the system's own sh: how a command line the person configured (a hook) is run. */
export function shellLine(command: string): { file: string; args: string[] } {
  const sh = systemProgram('sh');
  if (!sh) throw new Error(notInstalled('sh'));
  return { file: sh, args: ['-c', command] };
}

/**
 * Starts a command the person configured (a hook, docs/agent.md#hooks): `shellLine`'s, or that line
 * wrapped in the sandbox (whose program is bubblewrap, found here too), in a process group of its own
 * so that a hook that hangs is stopped whole (killGroup). The caller leaves keys out of `env` and sets
 * its PATH with personPath.
 */
export function startPersonCommand(
  line: { file: string; args: string[] },
  options: { cwd: string; env: Record<string, string> },
): ChildProcessWithoutNullStreams {
  return spawn(line.file, line.args, { cwd: options.cwd, env: options.env, stdio: 'pipe', detached: true });
}

/**
 * Starts this installation's own `oi` for a scheduled task's run (core/schedules/schedule-service.ts):
 * the program and script by the absolute paths the task was set up with, its output appended to a log
 * file; resolves with its exit code. Its environment is the app's, as `oi` run from the person's
 * terminal would have: the run's code is sandboxed by oi itself (docs/schedules.md#unattended).
 */
export function runOwnOi(command: { program: string; args: string[]; env: Record<string, string> }, logFd: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command.program, command.args, {
      cwd: sep,
      env: { ...process.env, ...command.env },
      stdio: ['ignore', logFd, logFd],
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/**
 * Starts this `oi` again, detached, for a background run (`oi -m … --background`, docs/cli.md): in a
 * session of its own so that closing the terminal does not end it, no standard input, its output
 * appended to the run's log. Resolves with its process id once it has started.
 */
export function startOwnOiDetached(
  command: { program: string; args: string[]; cwd: string; env: NodeJS.ProcessEnv },
  logFd: number,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command.program, command.args, {
      cwd: command.cwd,
      env: command.env,
      detached: true,
      stdio: ['ignore', logFd, logFd],
    });
    child.once('error', reject);
    child.once('spawn', () => {
      child.unref();
      if (child.pid === undefined) reject(new Error('oi did not start'));
      else resolve(child.pid);
    });
  });
}

/** Kills a program started with startPersonCommand and everything in its process group. */
export function killGroup(child: { pid?: number | undefined }): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function notInstalled(name: string): string {
  return `${name} was not found in the system's folders (${SYSTEM_DIRS.join(', ')})`;
}
