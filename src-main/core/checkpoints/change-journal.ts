import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { JournalReply, JournalRequest } from './journal-protocol';
import { errorMessage } from '@contract/error-message';

/**
 * Which paths of a workspace changed since its last checkpoint, from the file system's change
 * notifications (inotify on Linux, FSEvents on macOS, ReadDirectoryChangesW on Windows, through
 * fs.watch), so that a checkpoint after a cell that changed nothing costs no walk of the workspace
 * and one that changed ten files looks at those ten. Git answers the same question with its index and
 * one lstat per file; that walk alone costs more than half of `git add -A` on a large tree, which is
 * the budget docs/checkpoints.md sets.
 *
 * It is an accelerator, never the truth: whenever it cannot vouch for completeness the checkpoint
 * walks everything (the first checkpoint, a watch that failed, a workspace with more folders than the
 * watch budget, so many events that some may have been dropped — journal-worker.ts says how that is
 * known — a .gitignore that changed, a restore, or the journal's thread not running at all).
 *
 * The watches live in a thread of their own (journal-worker.ts): its own event loop has its own
 * inotify queue, so the count of events it sees is complete, and the main thread's loop never carries
 * them.
 */

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

export type JournalTake =
  | { whole: true; reason: string }
  /** `watchedIgnored`: the ignored folders watched inside (a checkpoint may record only those whole). */
  | { whole: false; dirty: string[]; watchedIgnored: string[] };

/** More folders than this are not watched (inotify's per-user watch limit is shared with other apps). */
const MAX_FOLDERS = 8192;

/**
 * How long a request waits for the thread before the journal is given up. An answer takes
 * milliseconds once the thread runs; the first waits for the thread to load, several seconds from
 * source on a loaded machine. A thread that never answers (seen once: `oi` from source stayed alive
 * for 24 minutes on a journal request, the thread presumably stuck loading its code through tsx's
 * hooks) must not hold a turn, or the process, forever: past this, checkpoints walk instead.
 */
const REPLY_TIMEOUT_MS = 60_000;

export interface JournalOptions {
  overflowAt?: number;
  /** Default REPLY_TIMEOUT_MS. */
  replyTimeoutMs?: number;
  /** The thread's code (default: journal-worker); tests give one that never answers. */
  entry?: { file: string; eval: boolean };
}

export class ChangeJournal {
  private static sharedOne: ChangeJournal | null = null;

  /** One journal thread per process, for every workspace. */
  static shared(): ChangeJournal {
    return (ChangeJournal.sharedOne ??= new ChangeJournal());
  }

  private worker: Worker | null = null;
  private failed: string | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, (reply: JournalReply | { id: number; whole: true; reason: string }) => void>();

  constructor(private readonly options: JournalOptions = {}) {}

  /**
   * Starts the thread ahead of the first checkpoint (the desktop app and browser mode, at start):
   * loading its code takes most of a second on a busy machine — several from source, where tsx
   * compiles it inside the thread — which the first cell would otherwise wait for.
   */
  prepare(): void {
    this.start();
  }

  /** Starts (or restarts) watching `root`; called just before a full walk, so nothing between is missed. */
  async watch(root: string): Promise<boolean> {
    const reply = await this.request({
      op: 'watch',
      root,
      maxFolders: MAX_FOLDERS,
      ...(this.options.overflowAt ? { overflowAt: this.options.overflowAt } : {}),
    });
    return 'watching' in reply && reply.watching;
  }

  /** The paths changed since the last take (or since `watch`), or that everything must be walked. */
  async take(root: string): Promise<JournalTake> {
    const reply = await this.request({ op: 'take', root });
    if ('whole' in reply)
      return reply.whole
        ? { whole: true, reason: reply.reason }
        : { whole: false, dirty: reply.dirty, watchedIgnored: reply.watchedIgnored };
    return { whole: true, reason: 'unexpected reply' };
  }

  async stop(root: string): Promise<void> {
    if (this.worker) await this.request({ op: 'stop', root });
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    this.failed = 'closed';
    await w?.terminate();
  }

  private request(body: WithoutId<JournalRequest>): Promise<JournalReply> {
    const worker = this.start();
    const id = this.nextId++;
    if (!worker) return Promise.resolve({ id, whole: true, reason: `no change journal (${this.failed ?? 'not started'})` });
    return new Promise((resolve) => {
      if (this.pending.size === 0) worker.ref();
      const limit = this.options.replyTimeoutMs ?? REPLY_TIMEOUT_MS;
      // Unref'd: the pending request already keeps the process alive (the worker is ref'd meanwhile).
      const watchdog = setTimeout(() => this.giveUp(worker, `its thread did not answer within ${limit / 1000} s`), limit).unref();
      this.pending.set(id, (reply) => {
        clearTimeout(watchdog);
        resolve(reply);
      });
      const request: JournalRequest = { ...body, id };
      worker.postMessage(request);
    });
  }

  /** The thread failed, ended or hangs: every request waiting on it is answered "walk", and it is ended. */
  private giveUp(worker: Worker, why: string): void {
    if (this.worker === worker) {
      this.worker = null;
      this.failed = why;
    }
    for (const [id, resolve] of this.pending) resolve({ id, whole: true, reason: `no change journal (${why})` });
    this.pending.clear();
    worker.unref();
    void worker.terminate().catch(() => undefined);
  }

  private start(): Worker | null {
    if (this.worker || this.failed) return this.worker;
    const entry = this.options.entry ?? workerEntry();
    if (!entry) {
      this.failed = 'its code was not found';
      return null;
    }
    try {
      const worker = new Worker(entry.file, { eval: entry.eval, stdout: false, stderr: false });
      worker.on('message', (reply: JournalReply) => {
        this.pending.get(reply.id)?.(reply);
        this.pending.delete(reply.id);
        if (this.pending.size === 0) worker.unref();
      });
      worker.on('error', (err) => this.giveUp(worker, err.message));
      worker.on('exit', (code) => this.giveUp(worker, `its thread ended (${code})`));
      // The journal keeps the app (or `oi`) alive only while it is being asked something.
      worker.unref();
      this.worker = worker;
    } catch (err) {
      this.failed = errorMessage(err);
    }
    return this.worker;
  }
}

/**
 * The worker's code: built, it is `checkpoint-journal.js` beside the bundle (electron.vite.config.ts);
 * from source (tests, `npm run oi`), the TypeScript file loaded through tsx's module hooks (a worker
 * does not take --import from execArgv, so a two-line starter registers them first).
 */
function workerEntry(): { file: string; eval: boolean } | null {
  const built = fileURLToPath(new URL('./checkpoint-journal.js', import.meta.url));
  if (existsSync(built)) return { file: built, eval: false };
  const source = new URL('./journal-worker.ts', import.meta.url);
  if (!existsSync(fileURLToPath(source))) return null;
  try {
    const tsxDir = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
    const api = pathToFileURL(path.join(tsxDir, 'dist', 'esm', 'api', 'index.mjs')).href;
    return {
      file: `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(source.href)}); });`,
      eval: true,
    };
  } catch {
    return null;
  }
}
