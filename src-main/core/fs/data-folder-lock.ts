import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { link, readFile, rename, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

// A lock between the processes that share one data folder — the desktop app, browser mode, `oi`, the
// scheduled runs — for the parts only one of them may change at a time: a checkpoint store (a gc in one
// prunes the objects another has just written), schedules.json (two adds, one lost), the in-app
// scheduler (two would run each task twice). Everything else is written atomically and needs no lock.
//
// The lock is a file beside what it guards, made whole (a temporary file hard-linked to its name: the
// link fails if the name exists, and the lock is never seen half written) and naming its holder: pid,
// host, what it holds the lock for, since when. A lock whose holder is dead on this host (a killed
// process) is taken over. proper-lockfile, which electron-builder brings as a dev dependency, was not
// used: it decides staleness by an mtime its holder refreshes on a timer, so an event loop stalled
// past the limit (a loaded machine) loses a live lock, and its default answer to that throws from the
// timer, which would end the main process; a pid says exactly whether the holder lives, and the data
// folder is always on this machine. It lives in the data folder, which sandboxed code cannot write
// (docs/sandbox.md, sealed), so code a conversation runs can neither plant nor remove a lock.
//
// Taking, reading and releasing are synchronous system calls on that local folder (a page-cache write
// of ~150 bytes, a link, an unlink, a read: microseconds each), not trips through libuv's thread pool,
// each of which wakes a worker and then main: a checkpoint takes the store's lock twice a cell, and
// the ~20 trips that cost were a measurable part of an agent step on a loaded machine (issue 37).
// Nothing here waits for the disk (no fsync): a lock lives only as long as its holder's process.

export interface LockHolder {
  pid: number;
  host: string;
  /** What the holder holds it for, for the person reading the error. */
  purpose: string;
  since: string;
  /** Tells two holdings of the same process apart. */
  token: string;
}

/** The lock is held by a live process for longer than the caller would wait. */
export class DataFolderBusy extends Error {
  constructor(
    readonly file: string,
    readonly holder: LockHolder,
    purpose: string,
  ) {
    super(
      `${purpose} is in use by another Open Interpreter process (pid ${holder.pid}${holder.host === os.hostname() ? '' : ` on ${holder.host}`}: ${holder.purpose}, since ${holder.since}); ` +
        `try again when it is done. If no such process runs, remove ${file}.`,
    );
    this.name = 'DataFolderBusy';
  }
}

export interface HeldLock {
  readonly file: string;
  readonly holder: LockHolder;
  release(): Promise<void>;
}

/** Locks this process holds, removed if it exits without releasing them (a killed process leaves them; see isStale). */
const held = new Map<string, string>();
process.on('exit', () => {
  for (const file of held.keys()) {
    try {
      unlinkSync(file);
    } catch {
      // gone already
    }
  }
  held.clear();
});

function readHolder(file: string): LockHolder | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockHolder>;
    if (typeof parsed.pid !== 'number' || typeof parsed.token !== 'string') return null;
    return {
      pid: parsed.pid,
      host: String(parsed.host ?? ''),
      purpose: String(parsed.purpose ?? ''),
      since: String(parsed.since ?? ''),
      token: parsed.token,
    };
  } catch {
    return null;
  }
}

/** Whether the holder is certainly gone: a process of this host that no longer exists. */
function isStale(holder: LockHolder): boolean {
  if (holder.host !== os.hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (err) {
    // EPERM: it exists, as another user.
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Moves a dead holder's lock away, unless another process took it over meanwhile. */
async function takeOver(file: string, stale: LockHolder): Promise<void> {
  const aside = `${file}.stale-${randomBytes(6).toString('hex')}`;
  try {
    await rename(file, aside);
  } catch {
    return; // another process moved it first
  }
  const moved = readHolder(aside);
  // Between our read and the rename another process may have taken the dead lock and made its own:
  // put that one back (a link never replaces a newer lock).
  if (moved && moved.token !== stale.token) await link(aside, file).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

/** Who holds the lock now, if a live process does (a dead holder's lock is as good as free). */
export async function liveHolder(file: string): Promise<LockHolder | null> {
  const holder = readHolder(file);
  return holder && !isStale(holder) ? holder : null;
}

/** Takes the lock if it is free (or its holder dead); otherwise says who holds it. */
export async function tryLock(file: string, purpose: string): Promise<HeldLock | { heldBy: LockHolder }> {
  const holder: LockHolder = {
    pid: process.pid,
    host: os.hostname(),
    purpose,
    since: new Date().toISOString(),
    token: randomBytes(12).toString('hex'),
  };
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${holder.token}.tmp`);
  writeFileSync(tmp, JSON.stringify(holder), { mode: 0o600 });
  try {
    for (;;) {
      try {
        linkSync(tmp, file);
        held.set(file, holder.token);
        return { file, holder, release: () => release(file, holder.token) };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const current = readHolder(file);
      // Unreadable: being moved by a take-over, or damaged by hand; look again (a damaged one is stale).
      if (!current) {
        const again = await readFile(file, 'utf8').catch(() => null);
        if (again === null) continue;
        await takeOver(file, { pid: -1, host: '', purpose: '', since: '', token: '' });
        continue;
      }
      if (!isStale(current)) return { heldBy: current };
      await takeOver(file, current);
    }
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // gone already
    }
  }
}

async function release(file: string, token: string): Promise<void> {
  if (held.get(file) !== token) return;
  held.delete(file);
  // Only our own: a lock taken over from us (we were thought dead) is the new holder's.
  if (readHolder(file)?.token !== token) return;
  try {
    unlinkSync(file);
  } catch {
    // gone already
  }
}

export interface WaitOptions {
  purpose: string;
  /** How long to wait for a live holder before failing with DataFolderBusy. */
  waitMs: number;
  /** Told once, when the lock is found held, with its holder. */
  onWait?: (holder: LockHolder) => void;
}

/** Takes the lock, waiting for a live holder up to `waitMs`. */
export async function holdLock(file: string, opts: WaitOptions): Promise<HeldLock> {
  const deadline = Date.now() + opts.waitMs;
  let pause = 20;
  let told = false;
  for (;;) {
    const got = await tryLock(file, opts.purpose);
    if (!('heldBy' in got)) return got;
    if (!told) opts.onWait?.(got.heldBy);
    told = true;
    if (Date.now() >= deadline) throw new DataFolderBusy(file, got.heldBy, opts.purpose);
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, Math.max(0, deadline - Date.now()))));
    pause = Math.min(pause * 2, 250);
  }
}

/** Runs `run` holding the lock; it is released however `run` ends. */
export async function withLock<T>(file: string, opts: WaitOptions, run: () => Promise<T>): Promise<T> {
  const lock = await holdLock(file, opts);
  try {
    return await run();
  } finally {
    await lock.release();
  }
}
