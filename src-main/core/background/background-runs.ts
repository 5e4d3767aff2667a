import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic-write';

// Background runs (`oi -m … --background`, docs/cli.md#background-runs): one record and one output log
// per run in <data folder>/background-runs/. The data folder is hidden from the sandbox (sealed when a
// workspace contains it), so code a conversation runs can neither forge a record nor rewrite the log a
// person attaches to. The detached oi writes its own end; `oi stop` writes it for an oi that was killed.

export const BackgroundStatus = z.enum(['running', 'done', 'failed', 'declined', 'stopped']);
export type BackgroundStatus = z.infer<typeof BackgroundStatus>;

export const BackgroundRun = z.object({
  id: z.string().regex(/^[0-9a-f]{8}$/),
  message: z.string(),
  /** The folder oi was started in (where its code runs unless --workspace said otherwise). */
  cwd: z.string(),
  pid: z.number().int().positive().nullable(),
  startedAt: z.string(),
  status: BackgroundStatus,
  endedAt: z.string().nullable(),
  exitCode: z.number().int().nullable(),
  /** How the turn ended, in oi's words ("done", "stopped", "time-limit", the error). */
  reason: z.string().nullable(),
  conversationId: z.string().nullable(),
});
export type BackgroundRun = z.infer<typeof BackgroundRun>;

export class BackgroundRunError extends Error {}

const DIR = 'background-runs';

/** oi's exit code (docs/cli.md) as a run's end. */
export function statusForExit(code: number): BackgroundStatus {
  if (code === 0) return 'done';
  if (code === 3) return 'declined';
  if (code === 130 || code === 129) return 'stopped';
  return 'failed';
}

/** Whether a process with this id is alive (signal 0 checks without sending anything). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // ESRCH: gone. EPERM: the id now belongs to another user's process, so our oi is gone too.
    return false;
  }
}

export class BackgroundRuns {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, DIR);
  }

  logFile(id: string): string {
    return path.join(this.dir, `${id}.log`);
  }

  private recordFile(id: string): string {
    return path.join(this.dir, `${id}.json`);
  }

  /** A new run's id, and its log file made (owner-only) for the detached oi's output. */
  async prepare(): Promise<{ id: string; log: string }> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const id = randomBytes(4).toString('hex');
    return { id, log: this.logFile(id) };
  }

  /** The record of a run just started: written after the spawn, long before the new oi can end. */
  async create(id: string, message: string, cwd: string, pid: number | null): Promise<BackgroundRun> {
    const run: BackgroundRun = {
      id,
      message,
      cwd,
      pid,
      startedAt: new Date().toISOString(),
      status: 'running',
      endedAt: null,
      exitCode: null,
      reason: null,
      conversationId: null,
    };
    await this.write(run);
    return run;
  }

  async write(run: BackgroundRun): Promise<void> {
    await writeFileAtomic(this.recordFile(run.id), `${JSON.stringify(BackgroundRun.parse(run), null, 2)}\n`);
  }

  async update(id: string, change: Partial<Omit<BackgroundRun, 'id'>>): Promise<BackgroundRun> {
    const run = { ...(await this.read(id)), ...change };
    await this.write(run);
    return run;
  }

  async read(id: string): Promise<BackgroundRun> {
    const file = this.recordFile(id);
    const info = await lstat(file).catch(() => null);
    if (!info) throw new BackgroundRunError(`no background run has the id "${id}" (see oi ps)`);
    if (!info.isFile()) throw new BackgroundRunError(`${file} is not a plain file`);
    const parsed = BackgroundRun.safeParse(JSON.parse(await readFile(file, 'utf8')));
    if (!parsed.success) throw new BackgroundRunError(`${file} is not a background run record`);
    return parsed.data;
  }

  /** Every run, oldest first, with a "running" one whose process is gone shown as what it is. */
  async list(): Promise<BackgroundRun[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const runs: BackgroundRun[] = [];
    for (const name of names.filter((n) => n.endsWith('.json'))) {
      const run = await this.read(name.slice(0, -'.json'.length)).catch(() => null);
      if (run) runs.push(settled(run));
    }
    return runs.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  }

  /** A run by its id or the first characters of it, as `oi --conversation` takes a prefix. */
  async find(prefix: string): Promise<BackgroundRun> {
    if (!/^[0-9a-f]{1,8}$/.test(prefix)) throw new BackgroundRunError(`"${prefix}" is not a background run id (see oi ps)`);
    const matches = (await this.list()).filter((r) => r.id.startsWith(prefix));
    if (matches.length > 1) throw new BackgroundRunError(`"${prefix}" names ${matches.length} background runs; give more of the id`);
    const [run] = matches;
    if (!run) throw new BackgroundRunError(`no background run has the id "${prefix}" (see oi ps)`);
    return run;
  }
}

/** A record still saying "running" whose oi is gone ended without writing its end (killed). */
export function settled(run: BackgroundRun): BackgroundRun {
  if (run.status !== 'running' || run.pid === null || processAlive(run.pid)) return run;
  return { ...run, status: 'stopped', reason: run.reason ?? 'oi ended without recording how (killed?)' };
}
