import { runAppProgram } from '../../programs/app-programs';
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

// Finding and killing everything a session started. Sessions run under a pty, so their leader
// starts a new session (setsid) and every process it starts stays in it unless it deliberately
// escapes. Killing goes by process group: one kill(-pgid) reaches every member at once, which is
// what stops a fork bomb whose members multiply faster than they can be killed one by one.

interface ProcInfo {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
}

async function listLinux(): Promise<ProcInfo[]> {
  const entries = await readdir('/proc').catch(() => [] as string[]);
  const out: ProcInfo[] = [];
  await Promise.all(
    entries
      .filter((e) => /^\d+$/.test(e))
      .map(async (e) => {
        const stat = await readFile(`/proc/${e}/stat`, 'utf8').catch(() => null);
        if (!stat) return;
        // The command name (field 2) may contain spaces and parentheses: parse after the last ')'.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        out.push({ pid: Number(e), ppid: Number(fields[1]), pgid: Number(fields[2]), sid: Number(fields[3]) });
      }),
  );
  return out;
}

async function listPs(): Promise<ProcInfo[]> {
  const { ok, stdout } = await runAppProgram('ps', ['-A', '-o', 'pid=,ppid=,pgid=']);
  if (!ok) return [];
  const out: ProcInfo[] = [];
  for (const line of stdout.split('\n')) {
    const [pid, ppid, pgid] = line.trim().split(/\s+/).map(Number);
    if (pid && ppid !== undefined && pgid !== undefined) out.push({ pid, ppid, pgid, sid: -1 });
  }
  return out;
}

function listProcesses(): Promise<ProcInfo[]> {
  return process.platform === 'linux' ? listLinux() : listPs();
}

/** The leader's session plus every descendant of the leader (found through parent links). */
export async function sessionProcesses(leader: number): Promise<ProcInfo[]> {
  const all = await listProcesses();
  const children = new Map<number, ProcInfo[]>();
  for (const p of all) {
    const list = children.get(p.ppid);
    if (list) list.push(p);
    else children.set(p.ppid, [p]);
  }
  const found = new Map<number, ProcInfo>();
  for (const p of all) if (p.sid === leader) found.set(p.pid, p);
  const queue = [leader];
  while (queue.length > 0) {
    const pid = queue.pop() as number;
    for (const child of children.get(pid) ?? []) {
      if (!found.has(child.pid)) {
        found.set(child.pid, child);
        queue.push(child.pid);
      }
    }
  }
  return [...found.values()];
}

/** Our own process group, which a kill by group must never hit (it would take the app down). */
let ownGroup: number | null = null;
async function ownProcessGroup(): Promise<number> {
  if (ownGroup !== null) return ownGroup;
  const stat = await readFile('/proc/self/stat', 'utf8').catch(() => null);
  ownGroup = stat ? Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) : -1;
  return ownGroup;
}

function kill(pid: number, signal: NodeJS.Signals): void {
  const forbidden = [0, 1, -1, process.pid, -process.pid, ownGroup === null ? 0 : -ownGroup];
  if (forbidden.includes(pid)) return;
  try {
    process.kill(pid, signal);
  } catch {
    // gone, or not ours
  }
}

/**
 * The listing takes milliseconds; a process in it may exit and its pid go to an unrelated process
 * meanwhile (quickly, when a fork bomb churns through pids). Right before a kill, check that the
 * pid still is the process that was listed. Linux only; elsewhere the listing is trusted.
 */
function readNow(pid: number): ProcInfo | null {
  if (process.platform !== 'linux') return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, ppid: Number(fields[1]), pgid: Number(fields[2]), sid: Number(fields[3]) };
  } catch {
    return null;
  }
}

function stillSame(p: ProcInfo): boolean {
  if (process.platform !== 'linux') return true;
  const now = readNow(p.pid);
  return now !== null && now.ppid === p.ppid && now.pgid === p.pgid && now.sid === p.sid;
}

/**
 * A group id is not reused while any member lives, so killing the group is safe unless its number
 * now belongs to a new process elsewhere: then /proc/<pgid> shows a different session.
 */
function groupStillOurs(p: ProcInfo): boolean {
  if (process.platform !== 'linux') return true;
  const leader = readNow(p.pgid);
  return leader === null || leader.sid === p.sid;
}

/**
 * SIGKILLs everything the leader started, by process group, repeating while anything is left (a
 * fork bomb may fork between a listing and the kill). With keepLeader, the leader's own process
 * group is spared except for its other members, so a shell survives the loss of its children;
 * then stopWhen should say when the run being stopped has ended.
 */
export async function killDescendants(leader: number, options: { keepLeader: boolean; stopWhen?: () => boolean }): Promise<number> {
  await ownProcessGroup();
  let killed = 0;
  for (let round = 0; round < 20; round++) {
    // A surviving leader goes on running things (the next run, a shell's prompt hook): once the
    // run this was for has ended, what the session starts is no longer ours to kill.
    if (options.stopWhen?.()) break;
    const procs = (await sessionProcesses(leader)).filter((p) => p.pid !== leader);
    if (procs.length === 0) break;
    killed += procs.length;
    const leaderGroup = leader;
    // Stop first, so nothing forks or respawns while the rest are being killed. Not while the leader
    // lives on: a shell sees its stopped foreground job as Ctrl-Z and reports it as a stopped job.
    if (!options.keepLeader) for (const p of procs) if (p.pgid !== leaderGroup && p.pgid > 1 && groupStillOurs(p)) kill(-p.pgid, 'SIGSTOP');
    for (const p of procs) {
      if (p.pgid !== leaderGroup && p.pgid > 1) {
        if (groupStillOurs(p)) kill(-p.pgid, 'SIGKILL');
      } else if (stillSame(p)) kill(p.pid, 'SIGKILL');
    }
    await new Promise((r) => setTimeout(r, round < 3 ? 10 : 50));
  }
  if (!options.keepLeader) kill(leader, 'SIGKILL');
  return killed;
}

/** Kills the leader and everything it started. */
export async function killTree(leader: number): Promise<void> {
  await ownProcessGroup();
  kill(leader, 'SIGSTOP');
  await killDescendants(leader, { keepLeader: false });
  kill(leader, 'SIGCONT');
}
