import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

// Is a session's process back where it waits for the next cell? Asked from outside, on Linux,
// because the code a run guards can read and do anything its own process can (a secret in the
// shell's variables or the runner's memory is never safe): `/proc/<pid>/syscall` shows the system
// call the process's main thread is blocked in, with its arguments, stack pointer and program
// counter. The wait a session makes between cells (a shell's prompt read, a runner's read of its
// channel) is learnt once at start, before any cell ran, and a run may end only while the process
// is blocked in exactly that wait again. Code still running in the cell is deeper in the stack (or
// running, or blocked elsewhere), whatever it prints. What this does not hold against — code that
// loads machine code into the process and fakes the stack — is in docs/exec-protocol.md#end-of-a-run.

/** System calls that mean "waiting to read", by architecture (read, pread, readv, recvfrom, recvmsg, poll, select, epoll). */
const WAITS: Record<string, ReadonlySet<number>> = {
  x64: new Set([0, 17, 19, 45, 47, 7, 271, 23, 270, 232, 281, 441]),
  arm64: new Set([63, 67, 65, 207, 212, 73, 72, 22, 441]),
};

/** A blocked system call as `/proc/<pid>/syscall` shows it: number, six arguments, stack pointer, program counter. */
type SyscallLine = readonly string[];

export interface IdleWait {
  /** The process (as main sees it, also for a sandboxed one). */
  pid: number;
  line: SyscallLine;
  /** How many leading arguments must match too (a shell's read: descriptor, buffer and size). */
  args: number;
  /** The terminal's foreground group must be the process's own (shells: no job of the cell holds it). */
  foreground: boolean;
  /** The process's `/proc` files, kept open for the session's life (closeIdleWait). */
  files: ProcFiles;
}

/**
 * A process's `/proc/<pid>/syscall` and `stat`, opened once and read again from the start at each
 * look: every run's end looks several times, and opening a `/proc` file (its path walk and access
 * check) costs three times the read. The open file stays bound to the process it was opened for, so
 * a pid reused after it exited reads as gone (ESRCH), never as another process.
 */
class ProcFiles {
  private readonly fds = new Map<string, number | null>();
  private readonly buffer = Buffer.alloc(1024);
  private closed = false;

  constructor(readonly pid: number) {}

  read(name: 'syscall' | 'stat'): string | null {
    if (this.closed) return null;
    let fd = this.fds.get(name);
    if (fd === undefined) {
      try {
        fd = openSync(`/proc/${this.pid}/${name}`, 'r');
      } catch {
        fd = null;
      }
      this.fds.set(name, fd);
    }
    if (fd === null) return null;
    try {
      const n = readSync(fd, this.buffer, 0, this.buffer.length, 0);
      return this.buffer.toString('latin1', 0, n);
    } catch {
      return null;
    }
  }

  close(): void {
    this.closed = true;
    for (const fd of this.fds.values()) if (fd !== null) closeSync(fd);
    this.fds.clear();
  }
}

export function idleWaitSupported(): boolean {
  return process.platform === 'linux' && WAITS[process.arch] !== undefined;
}

/** Read synchronously: a few dozen bytes from procfs, far cheaper than four trips through the thread pool on every run's end. */
function syscallOf(files: ProcFiles): SyscallLine | null {
  const text = files.read('syscall');
  if (text === null) return null;
  const fields = text.trim().split(' ');
  // "running", or "-1 sp pc" for a thread blocked outside a system call.
  return fields.length === 9 ? fields : null;
}

function same(a: SyscallLine, b: SyscallLine, args: number): boolean {
  if (a[0] !== b[0] || a[7] !== b[7] || a[8] !== b[8]) return false;
  for (let i = 1; i <= args; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Learns the wait `pid` sits in between cells: polls until its main thread is blocked in a reading
 * system call, twice the same. Called when the session reported itself ready and before any cell
 * was sent, so no code of the user's cells can have shaped it. null when it cannot be known here
 * (not Linux, /proc not readable, or the process never settled within `timeoutMs`).
 */
export async function learnIdleWait(
  pid: number,
  options: { args: number; foreground: boolean; timeoutMs?: number },
): Promise<IdleWait | null> {
  const waits = WAITS[process.arch];
  if (!idleWaitSupported() || !waits) return null;
  const deadline = Date.now() + (options.timeoutMs ?? 5000);
  const files = new ProcFiles(pid);
  let previous: SyscallLine | null = null;
  while (Date.now() < deadline) {
    const line = syscallOf(files);
    if (line && waits.has(Number(line[0])) && (!options.foreground || ownsTerminal(files))) {
      if (previous && same(previous, line, options.args)) return { pid, line, args: options.args, foreground: options.foreground, files };
      previous = line;
    } else previous = null;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  files.close();
  return null;
}

/** True when the process is blocked in the wait learnt at its start (and holds its terminal, for a shell). */
export function waitsIdle(wait: IdleWait): boolean {
  const line = syscallOf(wait.files);
  if (!line || !same(line, wait.line, wait.args)) return false;
  return !wait.foreground || ownsTerminal(wait.files);
}

/** The session is over: its `/proc` files are closed (waitsIdle is false from then on). */
export function closeIdleWait(wait: IdleWait | null): void {
  wait?.files.close();
}

/** The process's group is its terminal's foreground group (`/proc/<pid>/stat`: pgrp and tpgid). */
function ownsTerminal(files: ProcFiles): boolean {
  const fields = statFields(files.read('stat'));
  return fields !== null && fields.tpgid > 0 && fields.tpgid === fields.pgrp;
}

function statFields(text: string | null): { pgrp: number; tpgid: number } | null {
  if (text === null) return null;
  // The command (field 2) may hold spaces and parentheses: fields are counted after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { pgrp: Number(fields[2]), tpgid: Number(fields[5]) };
}

/** The foreground group of the terminal `pid` runs on: a shell at its prompt (also inside a sandbox's pid namespace). */
export function terminalForeground(pid: number): number | null {
  let text: string | null;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    text = null;
  }
  const fields = statFields(text);
  return fields && fields.tpgid > 0 ? fields.tpgid : null;
}

/**
 * The process, among `root` and its descendants, that calls itself `innerPid` in its own pid
 * namespace (the pid a sandboxed runner reports is the sandbox's; /proc/<pid>/status `NSpid` maps it).
 */
export async function findByInnerPid(root: number, innerPid: number): Promise<number | null> {
  const queue = [root];
  for (let seen = 0; queue.length > 0 && seen < 64; seen++) {
    const pid = queue.shift() as number;
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    const ids = /^NSpid:\s*(.*)$/m.exec(status)?.[1]?.trim().split(/\s+/).map(Number) ?? [pid];
    if (ids[ids.length - 1] === innerPid) return pid;
    for (const task of await readdir(`/proc/${pid}/task`).catch(() => [] as string[])) {
      const children = await readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '');
      for (const child of children.split(' ').filter(Boolean)) queue.push(Number(child));
    }
  }
  return null;
}
