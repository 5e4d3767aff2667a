import { readdir, readFile } from 'node:fs/promises';

// bubblewrap with its own PID namespace runs as two processes above the program: the one we
// started, which waits, and the namespace's init, which reaps orphans. A signal to the first one
// would kill the whole sandbox (it does not forward signals), so signals and per-process limits go
// to the program itself, found here by walking down from the process we started.

interface Proc {
  pid: number;
  ppid: number;
  comm: string;
  /** 'Z' for a zombie: exited, not yet reaped. */
  state: string;
}

async function readProc(pid: number): Promise<Proc | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (!stat) return null;
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  const fields = stat.slice(close + 2).split(' ');
  return { pid, ppid: Number(fields[1]), comm: stat.slice(open + 1, close), state: fields[0] ?? '' };
}

/** Children of a process, from /proc/<pid>/task/<pid>/children, else by scanning /proc. */
export async function childrenOf(pid: number): Promise<number[]> {
  const listed = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => null);
  if (listed !== null) return listed.split(' ').filter(Boolean).map(Number);
  const entries = await readdir('/proc').catch(() => [] as string[]);
  const procs = await Promise.all(entries.filter((e) => /^\d+$/.test(e)).map((e) => readProc(Number(e))));
  return procs.filter((p): p is Proc => p !== null && p.ppid === pid).map((p) => p.pid);
}

export interface SandboxProcesses {
  /** The namespace's init (parent of the program and of any orphan it left). */
  init: number;
  program: number;
}

/**
 * Walks down from bubblewrap's own process while the processes are bubblewrap's; waits up to
 * `waitMs` for the program to appear (it is exec'd right after the namespace is set up).
 */
export async function findSandboxProcesses(outerPid: number, waitMs = 2000): Promise<SandboxProcesses | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const found = await walk(outerPid);
    if (found || Date.now() >= deadline) return found;
    // A sandbox that has already ended will not grow a program: do not wait for one.
    const outer = await readProc(outerPid);
    if (!outer || outer.state === 'Z') return null;
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function walk(outerPid: number): Promise<SandboxProcesses | null> {
  let parent = outerPid;
  let current = await readProc(outerPid);
  for (let depth = 0; current && depth < 4; depth++) {
    if (current.comm !== 'bwrap') return depth === 0 ? null : { init: parent, program: current.pid };
    const kids = await childrenOf(current.pid);
    // The init may already have orphans next to the program; the program is its first child.
    const first = kids[0];
    if (first === undefined) return null;
    parent = current.pid;
    current = await readProc(first);
  }
  return null;
}
