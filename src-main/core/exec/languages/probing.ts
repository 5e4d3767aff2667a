import { execFile } from 'node:child_process';
import { parse } from 'node:path';
import { withoutKeys } from '../process/env';
import { keepAnswer, keptAnswer } from './kept-probes';

// Running a program to ask it something (its version, its real executable, its packages) before a
// session starts. Where that runs depends on the session's route: for a sandboxed conversation, a
// program that sandboxed code could have written (the workspace's .venv/bin/python, a tool in a
// workspace folder on PATH) is asked inside the same sandbox, never by the app outside it
// (sandbox/sandbox-probing.ts). Everything else is asked here, from a neutral folder, so nothing the
// workspace holds (a .python-version, a sitecustomize.py) takes part.

export interface ProbeAnswer {
  ok: boolean;
  stdout: string;
  stderr: string;
  /** The program did not answer in time (a loaded machine, a slow shim): nothing is known, so nothing is kept. */
  timedOut?: boolean;
  /** When the program's answer came back (Date.now()), for a caller that needs it to be no older than its question. */
  endedAt?: number;
}

export interface AskOptions {
  /** Programs the app found itself that the command needs to see (Runtime.support). */
  needs?: readonly string[];
  /** Ask again rather than reuse an earlier answer (what is installed changes; a version does not). */
  fresh?: boolean;
}

export interface Probing {
  /** Runs `command args` and returns what it printed; `ok` false when it failed or could not run. */
  ask(command: string, args: string[], options?: AskOptions): Promise<ProbeAnswer>;
  /**
   * True when code on this route could have written `path` (or a link on the way to it): such a
   * program runs only inside the sandbox, and what it says about itself (sys.executable) is not
   * believed outside it. Always false without a sandbox, where code can write anything anyway.
   */
  writable(path: string): Promise<boolean>;
}

const FAILED: ProbeAnswer = { ok: false, stdout: '', stderr: '' };
const TIMEOUT_MS = 10_000;

/** How long a probe may take (tests shorten it to see what a slow program does). */
let timeoutMs = TIMEOUT_MS;
export function setProbeTimeout(ms: number = TIMEOUT_MS): void {
  timeoutMs = ms;
}

/**
 * Runs a program directly (no sandbox) from the file system's root, with `env` — by default the
 * app's own environment without the keys it holds: a version manager's shim needs the PATH the app
 * was started with to find its tools, whatever PATH the code is given.
 */
export function runProbe(command: string, args: string[], env: Record<string, string> = withoutKeys(process.env)): Promise<ProbeAnswer> {
  return new Promise((resolve) => {
    try {
      execFile(
        command,
        args,
        { timeout: timeoutMs, cwd: parse(process.cwd()).root, env, maxBuffer: 8 * 1024 * 1024 },
        (err, stdout, stderr) => {
          // execFile kills a program that outlives the timeout (err.killed): not an answer about it.
          if (err?.killed)
            resolve({ ok: false, stdout: String(stdout), stderr: `${command} did not answer within ${timeoutMs} ms`, timedOut: true });
          else resolve({ ok: !err, stdout: String(stdout), stderr: String(stderr), endedAt: Date.now() });
        },
      );
    } catch {
      resolve(FAILED);
    }
  });
}

const localCache = new Map<string, Promise<ProbeAnswer>>();

/** Forgets this process's answers, as a new start would (tests of kept answers, kept-probes.ts). */
export function forgetLocalProbes(): void {
  localCache.clear();
}

/** A pyenv shim's answer kept from an earlier start while what pyenv reads is unchanged (kept-probes.ts), else the program's. */
async function askKept(key: string, command: string, args: string[], env: Record<string, string> | undefined): Promise<ProbeAnswer> {
  const { hit, fingerprint } = await keptAnswer(key, command, env ?? process.env).catch(() => ({ hit: null, fingerprint: null }));
  if (hit) return hit;
  const answer = await runProbe(command, args, env);
  if (fingerprint) await keepAnswer(key, fingerprint, answer).catch(() => undefined);
  return answer;
}

/**
 * Asks programs directly, caching each answer for the life of the process: runtimes are not
 * reinstalled mid-conversation often enough to pay a spawn on every run. Only for programs sandboxed
 * code cannot write (sandbox-probing.ts decides) or for runs without a sandbox. The PATH the probe
 * runs with is part of the key: a bare name means another program under another PATH.
 */
export function localProbing(env?: Record<string, string>): Probing {
  return {
    ask(command, args, options = {}) {
      if (options.fresh) return runProbe(command, args, env);
      const key = `${command}\0${args.join('\0')}\0${(env ?? process.env).PATH ?? ''}`;
      let cached = localCache.get(key);
      if (!cached) {
        const asking = askKept(key, command, args, env);
        localCache.set(key, asking);
        // A probe that timed out says nothing about the program: on a loaded machine, keeping it would
        // call Python "not installed" for the rest of the process's life. The next run asks again.
        void asking.then((answer) => {
          if (answer.timedOut && localCache.get(key) === asking) localCache.delete(key);
        });
        cached = asking;
      }
      return cached;
    },
    writable: async () => false,
  };
}
