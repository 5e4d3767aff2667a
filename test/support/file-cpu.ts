import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** The file the summary reporter reads: one line per test file, "<cpu seconds>\t<file>". */
export const CPU_LOG_VARIABLE = 'OI_TEST_CPU_LOG';

// The suite's cost is the number CI time depends on (CONTRIBUTING.md), so each file's is written down.
// Where the machine has cgroup v1's cpuacct (these machines, CI), each test process moves into a cgroup
// of its own, below the one it was in (so a cgroup around the whole run still counts it), and a file is
// charged what that cgroup used while it ran: its own CPU and every process it started, whether reaped
// or not (a kernel, a sandbox, a kept-alive worker). Elsewhere, this process's CPU and that of the
// children it reaped (/proc's cutime/cstime). Not counted either way: the run's one Chromium, started by
// the global set-up. Files that share a process (the `shared` project) are charged the difference.
const CPUACCT = '/sys/fs/cgroup/cpuacct';
export const CGROUP_PREFIX = 'oi-test-';

let ownGroup: string | undefined | null = null;

/** The cgroup this process accounts into, made and joined on first use; undefined when there is none. */
function processGroup(): string | undefined {
  if (ownGroup !== null) return ownGroup;
  ownGroup = undefined;
  try {
    const line = readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .find((entry) => /^\d+:([^:]*,)?cpuacct(,[^:]*)?:/.test(entry));
    const current = line?.slice(line.lastIndexOf(':') + 1);
    if (current === undefined || !existsSync(join(CPUACCT, 'cpuacct.usage'))) return ownGroup;
    const group = join(CPUACCT, current, `${CGROUP_PREFIX}${process.pid}`);
    mkdirSync(group, { recursive: true });
    writeFileSync(join(group, 'cgroup.procs'), String(process.pid));
    ownGroup = group;
    process.once('exit', () => leaveGroup(group));
  } catch {
    // Not allowed here (not root, cgroup v2 only): fall back to /proc.
  }
  return ownGroup;
}

/** CPU-seconds this process and what it started have used so far, or undefined where neither is known. */
export function processTreeCpuSeconds(): number | undefined {
  const group = processGroup();
  try {
    if (group) return Number(readFileSync(join(group, 'cpuacct.usage'), 'utf8')) / 1e9;
    // Fields after the command's closing parenthesis: utime is the 12th, stime, cutime, cstime follow.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0) / 100;
  } catch {
    return undefined;
  }
}

/** Appends `file`'s CPU since `startSeconds` to the run's log (when the reporter set one). */
export function recordFileCpu(file: string, startSeconds: number | undefined): void {
  const log = process.env[CPU_LOG_VARIABLE];
  const now = processTreeCpuSeconds();
  if (!log || startSeconds === undefined || now === undefined) return;
  appendFileSync(log, `${(now - startSeconds).toFixed(2)}\t${relative(process.cwd(), file)}\n`);
}

/** Back into the parent cgroup, and the process's own removed (it stays while a child still runs in it). */
function leaveGroup(group: string): void {
  try {
    writeFileSync(join(dirname(group), 'cgroup.procs'), String(process.pid));
    rmdirSync(group);
  } catch {
    // A child still in it: removeEmptyGroups at the run's end.
  }
}

/** Removes the cgroups test processes left (run by the reporter when the run ends). */
export function removeEmptyGroups(): void {
  const line = readFileSync('/proc/self/cgroup', 'utf8')
    .split('\n')
    .find((entry) => /^\d+:([^:]*,)?cpuacct(,[^:]*)?:/.test(entry));
  if (line === undefined) return;
  const parent = join(CPUACCT, line.slice(line.lastIndexOf(':') + 1));
  let names: string[];
  try {
    names = readdirSync(parent).filter((name) => name.startsWith(CGROUP_PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    try {
      rmdirSync(join(parent, name));
    } catch {
      // Still in use: a process of another run, or one not yet gone.
    }
  }
}

/**
 * CPU-seconds of a running process and every process below it, from /proc (0 where it is not readable),
 * by kind: Chromium's `--type=` of each process (its utility processes by sub-type), else `main`. A
 * process that has exited is counted in its parent's reaped-children time (Chromium's renderers in
 * its zygote's).
 */
export function runningTreeCpuByKind(rootPid: number): Map<string, number> {
  const stats = new Map<number, { parent: number; ticks: number; kind: string }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0);
      stats.set(Number(name), { parent: Number(fields[1]), ticks, kind: processKind(name) });
    } catch {
      // Gone meanwhile.
    }
  }
  const kinds = new Map<string, number>();
  const pending = [rootPid];
  while (pending.length > 0) {
    const pid = pending.pop() as number;
    const stat = stats.get(pid);
    if (stat) kinds.set(stat.kind, (kinds.get(stat.kind) ?? 0) + stat.ticks / 100);
    for (const [child, other] of stats) if (other.parent === pid) pending.push(child);
  }
  return kinds;
}

// Chromium rewrites its command line into one string, so the switches are found by pattern.
function processKind(pid: string): string {
  const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  const type = /--type=([\w-]+)/.exec(cmdline)?.[1];
  if (type === undefined) return 'main';
  const sub = /--utility-sub-type=[\w.]*?(\w+)(?:\s|\0|$)/.exec(cmdline)?.[1];
  return sub ? `${type} (${sub})` : type;
}

/** Says what something no test file owns (the run's Chromium) used, when the run ends, and by which of its processes. */
export function reportSharedCpu(label: string, seconds: number, parts?: Map<string, number>): void {
  // Printed, not logged: the reporter has listed the files and removed its log by the time the global
  // set-up's teardown runs.
  const detail = parts ? ` (${[...parts].map(([kind, s]) => `${kind} ${s.toFixed(1)}`).join(', ')})` : '';
  process.stdout.write(`${label}: ${seconds.toFixed(1)} CPU-seconds${detail}\n`);
}
