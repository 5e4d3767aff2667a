import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { ExecSettings, RunLimits } from '@contract';
import { runAppProgram, systemProgram } from '../../programs/app-programs';
import { createPidsGroup, type PidsGroup } from './cgroup-pids';
import { isAlive } from './process-alive';

// Resource limits for a session. On Linux they are set on the running session with prlimit(1), as
// soft limits: the program cannot exceed them by accident, and the next run can change them
// without restarting the session (raising a hard limit would need privileges). Children inherit
// them. On macOS a `ulimit` wrapper sets them at spawn; macOS does not enforce a data-size limit.
//
// - memory → RLIMIT_DATA: counts the memory a process writes to (heap, anonymous mappings), unlike
//   RLIMIT_AS, which also counts address space that runtimes merely reserve (V8, WebAssembly).
// - CPU time → RLIMIT_CPU, per run: a session's CPU time accumulates across runs, so before each run
//   the soft limit is set to what the process has used so far plus the budget.
// - processes → RLIMIT_NPROC counts all the user's processes, not the session's, so the limit is
//   set to what the user already runs plus the budget. It does not bind root. Where a pids cgroup
//   can be made (cgroup-pids.ts), that is used instead: it counts the session's processes only.

export type LimitSettings = Pick<ExecSettings, 'timeoutMs' | 'memoryMb' | 'cpuSeconds' | 'maxProcesses'>;

export function describeLimits(settings: LimitSettings, sandbox: string | null): RunLimits {
  return {
    timeoutMs: settings.timeoutMs,
    memoryMb: settings.memoryMb,
    cpuSeconds: settings.cpuSeconds,
    maxProcesses: settings.maxProcesses,
    sandbox,
  };
}

/** prlimit, from the system's folders only (app-programs.ts), and only if it runs. */
let prlimitWorks: boolean | undefined;
async function findPrlimit(): Promise<boolean> {
  prlimitWorks ??= systemProgram('prlimit') !== null && (await runAppProgram('prlimit', ['--version'], { timeoutMs: 5000 })).ok;
  return prlimitWorks;
}
/** CPU seconds (user + system) the process has used so far; null when it cannot be read. */
export async function cpuSecondsUsed(pid: number): Promise<number | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (!stat) return null;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of /proc/pid/stat, in clock ticks (100 per second on Linux).
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? Math.ceil(ticks / 100) : null;
}

/** How many processes the current user runs (what RLIMIT_NPROC counts). */
async function userProcessCount(): Promise<number> {
  const uid = process.getuid?.() ?? -1;
  const result = await runAppProgram('ps', ['-U', String(uid), '-o', 'pid='], { timeoutMs: 5000 });
  return result.ok ? result.stdout.split('\n').filter((l) => l.trim()).length : 0;
}

export interface LimitController {
  /** Applies the limits that should hold for the next run; returns a problem to mention, if any. */
  beforeRun(pid: number, settings: LimitSettings): Promise<string | null>;
  /**
   * True when beforeRun would apply nothing (the same limits already hold, no CPU budget to move):
   * told here and now, so a warm run's message goes out without waiting a turn for beforeRun's
   * answer (issue 37). False when it cannot tell: beforeRun is then called as before.
   */
  settled?(pid: number, settings: LimitSettings): boolean;
  /** On platforms without prlimit: wraps the spawn command so the limits hold from the start. */
  wrapSpawn(file: string, args: string[], settings: LimitSettings): { file: string; args: string[] };
  /** Releases what the limits hold (the pids cgroup); call after the session's processes are gone. */
  dispose?(): Promise<void>;
}

/**
 * beforeRun's answer, or null here and now when `settled` says nothing is to be applied: a warm
 * runner's message then goes out in the same turn as the run is asked for (runner-session.ts), not
 * a turn later behind the run's other set-up (issue 37).
 */
export function limitsBeforeRun(limits: LimitController, pid: number, settings: LimitSettings): Promise<string | null> | null {
  return limits.settled?.(pid, settings) ? null : limits.beforeRun(pid, settings);
}

/** One per session: remembers what it applied so an unchanged run costs no process spawn. */
export function createLimitController(): LimitController {
  const isRoot = process.getuid?.() === 0;
  let appliedKey: string | null = null;
  // The limits the last spawn already started under (wrapSpawn's prlimit), for the beforeRun that
  // follows that spawn: it then has nothing to apply, and the app starts no prlimit of its own.
  let spawnedKey: string | null = null;
  let nprocBase: number | null = null;
  let group: PidsGroup | null | undefined;
  let groupedPid: number | null = null;
  const keyOf = (pid: number, settings: LimitSettings): string =>
    JSON.stringify([pid, settings.memoryMb, settings.maxProcesses, settings.cpuSeconds]);
  return {
    settled(pid, settings) {
      if (process.platform !== 'linux') return true;
      if (settings.cpuSeconds !== null || keyOf(pid, settings) !== appliedKey) return false;
      // What beforeRun does on this path too: a spawn's limits count for the first run after it only.
      spawnedKey = null;
      return true;
    },
    async beforeRun(pid, settings) {
      if (process.platform !== 'linux') return null;
      const key = keyOf(pid, settings);
      const spawned = spawnedKey === spawnKey(settings);
      spawnedKey = null;
      if (key === appliedKey && settings.cpuSeconds === null) return null;
      if (group === undefined) group = await createPidsGroup(randomBytes(6).toString('hex'));
      if (group) {
        if (groupedPid !== pid && (await group.add(pid))) groupedPid = pid;
        await group.setMax(settings.maxProcesses);
      }
      // Started under these limits already, and nothing here depends on the running process.
      if (spawned && settings.cpuSeconds === null && (isRoot || group)) {
        appliedKey = key;
        return null;
      }
      if (!(await findPrlimit())) return 'limits not applied: prlimit (util-linux) is not installed';
      const args = ['--pid', String(pid)];
      args.push(settings.memoryMb !== null ? `--data=${settings.memoryMb * 1024 * 1024}:` : '--data=unlimited:');
      if (!isRoot && !group) {
        nprocBase ??= await userProcessCount();
        args.push(settings.maxProcesses !== null ? `--nproc=${nprocBase + settings.maxProcesses}:` : '--nproc=unlimited:');
      }
      if (settings.cpuSeconds !== null) {
        const used = (await cpuSecondsUsed(pid)) ?? 0;
        args.push(`--cpu=${used + settings.cpuSeconds}:`);
      } else {
        args.push('--cpu=unlimited:');
      }
      const result = await runAppProgram('prlimit', args, { timeoutMs: 5000 });
      // A one-shot cell's process may have ended before prlimit reached it (gone, or a zombie prlimit
      // reports as "No such process"): nothing is left to limit, and no note is due.
      if (!result.ok && (!isAlive(pid) || /No such process/.test(result.stderr))) return null;
      if (!result.ok) return `limits not applied: ${result.stderr.trim() || 'prlimit failed'}`;
      appliedKey = key;
      return null;
    },
    wrapSpawn(file, args, settings) {
      if (process.platform === 'linux') {
        const wrapped = prlimitAtSpawn(file, args, settings);
        spawnedKey = wrapped ? spawnKey(settings) : null;
        return wrapped ?? { file, args };
      }
      if (process.platform === 'win32') return { file, args };
      const lines: string[] = [];
      if (settings.memoryMb !== null) lines.push(`ulimit -S -d ${settings.memoryMb * 1024} 2>/dev/null`);
      if (settings.maxProcesses !== null) {
        // RLIMIT_NPROC counts all the user's processes: allow what already runs plus the budget.
        lines.push(`ulimit -S -u $(( $(ps -U "$(id -u)" -o pid= | wc -l) + ${settings.maxProcesses} )) 2>/dev/null`);
      }
      if (lines.length === 0) return { file, args };
      return { file: '/bin/sh', args: ['-c', `${lines.join('; ')}; exec "$0" "$@"`, file, ...args] };
    },
    async dispose() {
      await group?.remove();
    },
  };
}

/** What wrapSpawn's prlimit set (the settings part of beforeRun's key). */
function spawnKey(settings: LimitSettings): string {
  return JSON.stringify([settings.memoryMb, settings.cpuSeconds]);
}

/**
 * The command started through `prlimit --data=… --cpu=… -- command` (Linux): prlimit sets the soft
 * limits on itself and execs the command, so the session starts under them — inside the sandbox too,
 * where the wrapped command runs — and the app need not start a prlimit of its own against the new
 * pid. That was a process forked from the app's own (large) one per session start: most of its cost
 * is the app's fork, not prlimit. Only where it cannot fail: prlimit is installed, and no hard limit
 * is below what the soft one is set to (/proc/self/limits, inherited by the session) — a failing
 * prlimit would keep the session from starting, where beforeRun's only says the limits did not apply.
 */
function prlimitAtSpawn(file: string, args: string[], settings: LimitSettings): { file: string; args: string[] } | null {
  const prlimit = systemProgram('prlimit');
  if (!prlimit || !hardLimitsOpen()) return null;
  const data = settings.memoryMb !== null ? `--data=${settings.memoryMb * 1024 * 1024}:` : '--data=unlimited:';
  const cpu = settings.cpuSeconds !== null ? `--cpu=${settings.cpuSeconds}:` : '--cpu=unlimited:';
  return { file: prlimit, args: [data, cpu, '--', file, ...args] };
}

let hardOpen: boolean | undefined;
/** Whether the app's hard data-size and CPU-time limits are unlimited (read once: they only go down). */
function hardLimitsOpen(): boolean {
  if (hardOpen !== undefined) return hardOpen;
  try {
    const lines = readFileSync('/proc/self/limits', 'utf8').split('\n');
    const hard = (name: string): string | undefined =>
      lines
        .find((l) => l.startsWith(name))
        ?.slice(name.length)
        .trim()
        .split(/\s+/)[1];
    hardOpen = hard('Max data size') === 'unlimited' && hard('Max cpu time') === 'unlimited';
  } catch {
    hardOpen = false;
  }
  return hardOpen;
}
