import { runAppProgram } from '../../programs/app-programs';
import { open, readdir, readFile, stat } from 'node:fs/promises';

// Finding out that a program waits for someone to type at its terminal (sudo's password, apt's
// "[Y/n]", a shell's `read`, ssh's host-key question), from outside the program, on Linux:
// a process the session started (or one of its threads) is blocked in a read of the session's
// terminal, or in poll/select/epoll waiting for it to become readable. (A background job that reads
// the terminal is stopped by the kernel instead, so it never shows up as waiting.) /proc shows
// the system call each thread sleeps in (`/proc/<pid>/syscall`: number and arguments), which file
// each descriptor is (`/proc/<pid>/fd/<n>`), what an epoll set watches (`fdinfo`), and a poll or
// select array can be read from the process's memory. This works for any program, in any
// language, inside the sandbox too (its processes are ours, seen from outside). Other systems have
// no such view: there, only the runners' own input requests are noticed (docs/exec.md#input).

export interface TerminalRead {
  pid: number;
  /** The command name of the process that waits (`sudo`, `bash`, `python3`). */
  command: string;
}

export interface TerminalModes {
  /** The terminal echoes what is typed; a program turns this off to read a password. */
  echo: boolean;
  /** Line at a time (cooked); off for full-screen and keypress programs (vim, less, menus). */
  canonical: boolean;
}

type Kind = 'read' | 'poll' | 'select' | 'epoll';

/** System call numbers by architecture: which calls mean "waiting to read", and how to look inside. */
const SYSCALLS: Record<string, Record<number, Kind>> = {
  x64: { 0: 'read', 19: 'read', 17: 'read', 7: 'poll', 271: 'poll', 23: 'select', 270: 'select', 232: 'epoll', 281: 'epoll', 441: 'epoll' },
  arm64: { 63: 'read', 65: 'read', 67: 'read', 73: 'poll', 72: 'select', 22: 'epoll', 441: 'epoll' },
};

const POLLIN = 0x1;
const EPOLLIN = 0x1;
/** A program watching more descriptors than this at once is not looked into (bounded memory reads). */
const MAX_WATCHED = 4096;
/** Processes looked at per check: a fork bomb must not make the check itself expensive. */
const MAX_PROCESSES = 512;

export function terminalReadSupported(): boolean {
  return process.platform === 'linux' && SYSCALLS[process.arch] !== undefined;
}

/**
 * The process of `leader`'s session that waits for input from its terminal, or null (also when this
 * cannot be known here). `leader` is the pid the session's pty started.
 */
export async function findTerminalRead(leader: number): Promise<TerminalRead | null> {
  const calls = SYSCALLS[process.arch];
  if (process.platform !== 'linux' || !calls) return null;
  const own = await statFields(leader);
  if (!own || own.tty === 0) return null;
  for (const pid of await sessionMembers(leader)) {
    const waiting = await waitsOnTerminal(pid, own.tty, calls);
    if (waiting) return waiting;
  }
  return null;
}

/** Echo and line mode of a terminal (`stty -a`), or null when they cannot be read. */
export function terminalModes(ttyPath: string): Promise<TerminalModes | null> {
  const flag = process.platform === 'darwin' ? '-f' : '-F';
  return runAppProgram('stty', [flag, ttyPath, '-a'], { timeoutMs: 5000 }).then(({ ok, stdout }) => {
    if (!ok) return null;
    const words = new Set(stdout.split(/[\s;]+/));
    return { echo: words.has('echo'), canonical: words.has('icanon') };
  });
}

interface StatFields {
  command: string;
  ppid: number;
  tty: number;
}

async function statFields(pid: number | string): Promise<StatFields | null> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (!text) return null;
  // The command (field 2) may hold spaces and parentheses: fields are counted after the last ')'.
  const close = text.lastIndexOf(')');
  const fields = text.slice(close + 2).split(' ');
  return {
    command: text.slice(text.indexOf('(') + 1, close),
    ppid: Number(fields[1]),
    tty: Number(fields[4]),
  };
}

/**
 * The leader and its descendants (through children links; without them, a full scan by parent).
 * Not only the terminal's foreground group: a sandbox puts the program in a session of its own.
 */
async function sessionMembers(leader: number): Promise<number[]> {
  const found: number[] = [];
  const queue = [leader];
  while (queue.length > 0 && found.length < MAX_PROCESSES) {
    const pid = queue.shift() as number;
    found.push(pid);
    const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
    for (const task of tasks) {
      const children = await readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => null);
      if (children === null) return scanDescendants(leader);
      for (const child of children.split(' ').filter(Boolean)) queue.push(Number(child));
    }
  }
  return found;
}

async function scanDescendants(leader: number): Promise<number[]> {
  const byParent = new Map<number, number[]>();
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = await statFields(entry);
    if (!fields) continue;
    const list = byParent.get(fields.ppid) ?? [];
    list.push(Number(entry));
    byParent.set(fields.ppid, list);
  }
  const found: number[] = [];
  const queue = [leader];
  while (queue.length > 0 && found.length < MAX_PROCESSES) {
    const pid = queue.shift() as number;
    found.push(pid);
    queue.push(...(byParent.get(pid) ?? []));
  }
  return found;
}

async function waitsOnTerminal(pid: number, tty: number, calls: Record<number, Kind>): Promise<TerminalRead | null> {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  for (const task of tasks) {
    const line = await readFile(`/proc/${pid}/task/${task}/syscall`, 'utf8').catch(() => null);
    if (!line) continue;
    const [nr, ...args] = line.trim().split(' ');
    const kind = calls[Number(nr)];
    if (!kind) continue;
    const arg = (i: number): bigint => {
      try {
        return BigInt(args[i] ?? '0');
      } catch {
        return 0n;
      }
    };
    const waiting =
      kind === 'read'
        ? await isTerminal(pid, Number(arg(0)), tty)
        : kind === 'epoll'
          ? await epollWatchesTerminal(pid, Number(arg(0)), tty)
          : kind === 'poll'
            ? await pollWatchesTerminal(pid, arg(0), Number(arg(1)), tty)
            : await selectWatchesTerminal(pid, Number(arg(0)), arg(1), tty);
    if (waiting) return { pid, command: (await statFields(pid))?.command ?? '' };
  }
  return null;
}

/** /dev/tty (5, 0): whichever terminal controls the process that opened it (getpass, sudo and ssh read it). */
const CONTROLLING_TTY = (5 << 8) | 0;

async function isTerminal(pid: number, fd: number, tty: number): Promise<boolean> {
  if (!Number.isInteger(fd) || fd < 0) return false;
  const info = await stat(`/proc/${pid}/fd/${fd}`).catch(() => null);
  if (!info?.isCharacterDevice()) return false;
  if (info.rdev === tty) return true;
  return info.rdev === CONTROLLING_TTY && (await statFields(pid))?.tty === tty;
}

async function epollWatchesTerminal(pid: number, epfd: number, tty: number): Promise<boolean> {
  const info = await readFile(`/proc/${pid}/fdinfo/${epfd}`, 'utf8').catch(() => null);
  if (!info) return false;
  for (const m of info.matchAll(/^tfd:\s*(\d+)\s+events:\s*([0-9a-f]+)/gm)) {
    if ((parseInt(m[2] ?? '0', 16) & EPOLLIN) !== 0 && (await isTerminal(pid, Number(m[1]), tty))) return true;
  }
  return false;
}

async function pollWatchesTerminal(pid: number, address: bigint, count: number, tty: number): Promise<boolean> {
  if (count <= 0 || count > MAX_WATCHED) return false;
  const bytes = await readMemory(pid, address, count * 8);
  if (!bytes) return false;
  for (let i = 0; i + 8 <= bytes.length; i += 8) {
    const fd = bytes.readInt32LE(i);
    if ((bytes.readInt16LE(i + 4) & POLLIN) !== 0 && (await isTerminal(pid, fd, tty))) return true;
  }
  return false;
}

async function selectWatchesTerminal(pid: number, nfds: number, readSet: bigint, tty: number): Promise<boolean> {
  if (readSet === 0n || nfds <= 0 || nfds > MAX_WATCHED) return false;
  const bytes = await readMemory(pid, readSet, Math.ceil(nfds / 64) * 8);
  if (!bytes) return false;
  for (let fd = 0; fd < nfds; fd++) {
    if (((bytes[fd >> 3] ?? 0) & (1 << (fd & 7))) !== 0 && (await isTerminal(pid, fd, tty))) return true;
  }
  return false;
}

async function readMemory(pid: number, address: bigint, length: number): Promise<Buffer | null> {
  // User-space addresses stay below 2^53 on x64 and arm64, so a Number holds them exactly (fs reads
  // at a bigint position fail with EIO here).
  if (address <= 0n || address > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  const file = await open(`/proc/${pid}/mem`, 'r').catch(() => null);
  if (!file) return null;
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await file.read(buffer, 0, length, Number(address));
    return bytesRead === length ? buffer : null;
  } catch {
    return null;
  } finally {
    await file.close();
  }
}
