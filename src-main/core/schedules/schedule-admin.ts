import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { Schedule, ScheduleDraft, ScheduleListing } from '@contract';
import { chooseRunner, installTask, uninstallTask, type RunnerChoice } from './os-scheduler';
import type { OiCommand } from './os-units';
import { launchRun } from './schedule-service';
import { ScheduleError, ScheduleStore } from './schedule-store';
import { isTimed, nextDue } from './schedule-times';

// What the Schedules screen asks of the tasks (docs/schedules.md#the-schedules-screen): the same
// steps as `oi schedule add|remove|run` — the store and the OS scheduler's entry change together, and
// a task that could not be put into its scheduler is not kept — behind the schedules.* requests.

/** Runs listed per task on the screen, newest first. */
const RUNS_SHOWN = 5;

export interface ScheduleAdminOptions {
  dataDir: string;
  /** The `oi` every scheduler starts (oi-command.ts); tests give the oi under test. */
  command: OiCommand;
  /** Where the OS scheduler is asked (systemctl's session) and OI_SCHEDULER is read. */
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
}

/** An id from the task's name, as `oi schedule add` makes one: readable, and unique by its suffix. */
export function scheduleIdFor(name: string): string {
  const slug =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 30) || 'task';
  return `${slug}-${randomBytes(2).toString('hex')}`;
}

async function mustBeFolder(folder: string, what: string): Promise<void> {
  const info = await stat(folder).catch(() => null);
  if (!info) throw new ScheduleError(`${what} ${folder} does not exist`);
  if (!info.isDirectory()) throw new ScheduleError(`${what} ${folder} is not a folder`);
}

export class ScheduleAdmin {
  readonly store: ScheduleStore;
  private readonly running = new Set<string>();
  private choice: Promise<RunnerChoice> | null = null;

  constructor(private readonly opts: ScheduleAdminOptions) {
    this.store = new ScheduleStore(opts.dataDir);
  }

  async listing(): Promise<ScheduleListing> {
    const [schedules, runs, choice] = await Promise.all([this.store.list(), this.store.runs(), this.runner()]);
    const now = new Date();
    return {
      runner: choice.runner,
      note: choice.note,
      schedules: schedules.map((schedule) => ({
        schedule,
        next: nextDue(schedule.when, now)?.toISOString() ?? null,
        runs: runs
          .filter((r) => r.scheduleId === schedule.id)
          .slice(-RUNS_SHOWN)
          .reverse(),
        running: this.running.has(schedule.id),
      })),
    };
  }

  /** Refuses, naming the field, a task whose folders are missing; nothing is written. */
  async check(draft: ScheduleDraft): Promise<void> {
    await mustBeFolder(draft.workspace, 'the folder');
    if (draft.when.kind === 'folder') await mustBeFolder(draft.when.folder, 'the watched folder');
  }

  /**
   * Adds a task: into the store and its OS scheduler together, not kept when the scheduler refuses it.
   * The Schedules screen and a task the person approved in a conversation (agent/schedule-cell.ts)
   * both add through here; `own`: the conversation's model and profile (the screen gives none).
   */
  async add(draft: ScheduleDraft, own: Pick<Schedule, 'model' | 'profile'> = { model: null }): Promise<Schedule> {
    await this.check(draft);
    const { runner } = await this.runner();
    const schedule: Schedule = {
      id: scheduleIdFor(draft.name),
      createdAt: new Date().toISOString(),
      ...draft,
      ...own,
      runner: isTimed(draft.when) ? runner : 'in-app',
    };
    await this.store.add(schedule);
    await this.install(schedule, () => this.store.remove(schedule.id));
    return schedule;
  }

  /** Adds a task, or replaces one's draft fields; its OS entry is rewritten with it. */
  async save(draft: ScheduleDraft, id?: string): Promise<ScheduleListing> {
    const old = id === undefined ? null : await this.store.get(id);
    if (!old) {
      await this.add(draft);
      return this.listing();
    }
    await this.check(draft);
    const { runner } = await this.runner();
    const schedule: Schedule = { ...old, ...draft, runner: isTimed(draft.when) ? runner : 'in-app' };
    await uninstallTask(old, this.opts.dataDir, this.opts.env);
    await this.store.replace(schedule);
    // The old task comes back whole when the new one cannot be put into its scheduler.
    await this.install(schedule, async () => {
      await this.store.replace(old);
      await installTask(old, this.opts.command, this.opts.dataDir, this.opts.env).catch(() => undefined);
    });
    return this.listing();
  }

  async remove(id: string): Promise<ScheduleListing> {
    const schedule = await this.store.get(id);
    await uninstallTask(schedule, this.opts.dataDir, this.opts.env);
    await this.store.remove(id);
    return this.listing();
  }

  /** Starts a run now (trigger `manual`), as `oi schedule run` does; resolves once it has started. */
  async run(id: string): Promise<void> {
    const schedule = await this.store.get(id);
    if (this.running.has(id)) throw new ScheduleError(`${schedule.name} is running already`);
    this.running.add(id);
    void launchRun(this.opts.dataDir, this.opts.command, this.opts.log, schedule, 'manual', null)
      .catch((err: unknown) => this.opts.log(`${schedule.name}: the run could not start: ${String(err)}`))
      .finally(() => this.running.delete(id));
  }

  private runner(): Promise<RunnerChoice> {
    this.choice ??= chooseRunner(this.opts.env);
    return this.choice;
  }

  private async install(schedule: Schedule, undo: () => Promise<unknown>): Promise<void> {
    try {
      await installTask(schedule, this.opts.command, this.opts.dataDir, this.opts.env);
    } catch (err) {
      await undo();
      throw err;
    }
  }
}
