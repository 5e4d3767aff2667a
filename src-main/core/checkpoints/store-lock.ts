import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { withLock, type LockHolder } from '../fs/data-folder-lock';

// A checkpoint store is shared by every process of the data folder that checkpoints the same folder
// (the desktop app, browser mode, `oi`, a scheduled run), and by the conversations of one process that
// work in it. Each operation runs alone: queued behind the others of this process, and holding the
// store's lock (data-folder-lock.ts) against the others' — a gc in one process prunes, with
// --prune=now, the objects another has written for a snapshot it has not recorded yet, and a rewind's
// journal would be finished twice. A process also keeps what it learnt of the store (the snapshotter's
// stat cache, big files' chunk lists), which a gc elsewhere may have made wrong: each gc leaves a new
// mark, and a process that finds a mark it did not see last forgets what it kept before using the store.

const GC_MARK = 'oi-gc-mark';

export interface StoreLockOptions {
  /** How long an operation waits for another process's before it fails, naming that process (2 min). */
  waitMs?: number;
  /** Told when an operation finds the store held by another process, and waits. */
  onWait?: (holder: LockHolder) => void;
}

/** Called by GitObjects.gc: the store's objects changed under whatever other processes keep. */
export async function markGc(gitDir: string): Promise<void> {
  await writeFile(path.join(gitDir, GC_MARK), randomBytes(8).toString('hex'), { mode: 0o600 });
}

export class StoreAccess {
  private queue: Promise<unknown> = Promise.resolve();
  /** The mark seen at the end of this process's last operation; undefined before the first. */
  private seen: string | null | undefined;

  constructor(
    private readonly gitDir: string,
    private readonly root: string,
    /** Drops what this process kept of the store. */
    private readonly forget: () => Promise<void>,
    private readonly options: StoreLockOptions = {},
  ) {}

  /** Read synchronously: a few bytes of a local file, twice an operation (data-folder-lock.ts says why). */
  private readMark(): string | null {
    const file = path.join(this.gitDir, GC_MARK);
    // Until a first gc there is no mark: looked for first, as a failed read's error costs ~4× the look.
    if (!existsSync(file)) return null;
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return null;
    }
  }

  /** Runs `op` after this process's earlier operations, holding the store's lock. */
  run<T>(op: () => Promise<T>): Promise<T> {
    const result = this.queue.then(() => this.locked(op));
    this.queue = result.catch(() => undefined);
    return result;
  }

  private locked<T>(op: () => Promise<T>): Promise<T> {
    const { waitMs = 120_000, onWait } = this.options;
    const purpose = `the checkpoint store of ${this.root}`;
    return withLock(`${this.gitDir}.lock`, { purpose, waitMs, ...(onWait ? { onWait } : {}) }, async () => {
      if (this.seen !== undefined && this.readMark() !== this.seen) await this.forget();
      try {
        return await op();
      } finally {
        this.seen = this.readMark();
      }
    });
  }
}
