import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { describeIssues, Schedule, ScheduleFile, ScheduleRunRecord } from '@contract';
import { writeFileAtomic } from '../fs/atomic-write';
import { withLock } from '../fs/data-folder-lock';

// The scheduled tasks, in <data folder>/schedules.json, and what each run did, one file per run in
// <data folder>/schedule-runs/. The sandbox hides the data folder (with the home and /tmp), so sandboxed
// code a conversation runs cannot add or change a task (test/security/attacks/schedule-store.test.ts),
// and where the workspace contains the data folder the data folder is sealed inside it (docs/sandbox.md).
// Every write is atomic: a crash leaves the old file or the new one. A change reads the list and writes
// it whole, so it holds the list's lock (data-folder-lock.ts): `oi schedule add` in two terminals, or
// beside the app, must not lose one of the two tasks.

export class ScheduleError extends Error {}

export const SCHEDULES_FILE = 'schedules.json';
const RUNS_DIR = 'schedule-runs';
/** Run records kept per task; older ones are removed when a run is recorded. */
const RUNS_KEPT = 100;

export class ScheduleStore {
  readonly file: string;
  readonly runsDir: string;

  constructor(
    readonly dataDir: string,
    /** How long a change waits for another process's before it fails, naming that process. */
    private readonly lockWaitMs = 30_000,
  ) {
    this.file = path.join(dataDir, SCHEDULES_FILE);
    this.runsDir = path.join(dataDir, RUNS_DIR);
  }

  /** Every task; none when the file does not exist. A damaged file is refused (and kept) with the reason. */
  async list(): Promise<Schedule[]> {
    const info = await lstat(this.file).catch(() => null);
    if (!info) return [];
    // A link could point anywhere (a workspace): the store is a plain file of the data folder's own.
    if (!info.isFile()) throw new ScheduleError(`${this.file} is not a plain file; move it away to start afresh`);
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(this.file, 'utf8'));
    } catch (err) {
      throw new ScheduleError(`${this.file} is not valid JSON (${(err as Error).message}); fix or move it away`);
    }
    const parsed = ScheduleFile.safeParse(raw);
    if (!parsed.success) throw new ScheduleError(`${this.file} does not hold valid tasks: ${describeIssues(parsed.error.issues)}`);
    return parsed.data.schedules;
  }

  async get(id: string): Promise<Schedule> {
    const found = (await this.list()).find((s) => s.id === id);
    if (!found) throw new ScheduleError(`no scheduled task has the id "${id}" (see oi schedule list)`);
    return found;
  }

  async add(schedule: Schedule): Promise<void> {
    const checked = Schedule.parse(schedule);
    await this.change(async (all) => {
      if (all.some((s) => s.id === checked.id)) throw new ScheduleError(`a task with the id "${checked.id}" exists already`);
      await this.write([...all, checked]);
    });
  }

  /** Replaces a task of the same id, whole. */
  async replace(schedule: Schedule): Promise<void> {
    const checked = Schedule.parse(schedule);
    await this.change(async (all) => {
      if (!all.some((s) => s.id === checked.id))
        throw new ScheduleError(`no scheduled task has the id "${checked.id}" (see oi schedule list)`);
      await this.write(all.map((s) => (s.id === checked.id ? checked : s)));
    });
  }

  /** Removes a task; its run records stay (the conversations they name stay too). */
  async remove(id: string): Promise<Schedule> {
    return this.change(async (all) => {
      const found = all.find((s) => s.id === id);
      if (!found) throw new ScheduleError(`no scheduled task has the id "${id}" (see oi schedule list)`);
      await this.write(all.filter((s) => s.id !== id));
      return found;
    });
  }

  /** Reads the list and changes it while no other process can. */
  private async change<T>(edit: (all: Schedule[]) => Promise<T>): Promise<T> {
    await mkdir(this.dataDir, { recursive: true, mode: 0o700 });
    return withLock(`${this.file}.lock`, { purpose: `the list of scheduled tasks (${this.file})`, waitMs: this.lockWaitMs }, async () =>
      edit(await this.list()),
    );
  }

  async recordRun(record: ScheduleRunRecord): Promise<void> {
    const checked = ScheduleRunRecord.parse(record);
    await mkdir(this.runsDir, { recursive: true, mode: 0o700 });
    const stamp = checked.startedAt.replace(/[^0-9]/g, '').slice(0, 17);
    await writeFileAtomic(
      path.join(this.runsDir, `${checked.scheduleId}.${stamp}.${randomBytes(3).toString('hex')}.json`),
      JSON.stringify(checked),
    );
    const own = (await readdir(this.runsDir)).filter((n) => n.startsWith(`${checked.scheduleId}.`) && n.endsWith('.json')).sort();
    for (const old of own.slice(0, Math.max(0, own.length - RUNS_KEPT))) await unlink(path.join(this.runsDir, old)).catch(() => undefined);
  }

  /** A task's runs (or every task's), oldest first; a damaged record is passed over. */
  async runs(id?: string): Promise<ScheduleRunRecord[]> {
    const names = await readdir(this.runsDir).catch(() => [] as string[]);
    const records: ScheduleRunRecord[] = [];
    for (const name of names) {
      if (!name.endsWith('.json') || (id !== undefined && !name.startsWith(`${id}.`))) continue;
      try {
        const parsed = ScheduleRunRecord.safeParse(JSON.parse(await readFile(path.join(this.runsDir, name), 'utf8')));
        if (parsed.success) records.push(parsed.data);
      } catch {
        // Being written, or damaged: not a run to show.
      }
    }
    return records.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  }

  private async write(schedules: Schedule[]): Promise<void> {
    await mkdir(this.dataDir, { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.file, `${JSON.stringify({ version: 1, schedules } satisfies ScheduleFile, null, 2)}\n`);
  }
}
