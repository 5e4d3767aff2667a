import { mkdirSync, openSync, closeSync } from 'node:fs';
import path from 'node:path';
import { errorMessage, type RunTrigger, type Schedule } from '@contract';
import { liveHolder, tryLock, type HeldLock, type LockHolder } from '../fs/data-folder-lock';
import { runOwnOi } from '../programs/app-programs';
import { FolderTriggers } from './folder-triggers';
import { InAppScheduler, systemClock, type SchedulerClock } from './in-app-scheduler';
import type { OiCommand } from './os-units';
import { ScheduleStore } from './schedule-store';
import { openWebhook, type Webhook } from './webhook';
import { runEndedEvents, watchRunRecords, type RunWatch } from './run-watch';
import type { EventBus } from '../bridge/event-bus';

// What runs scheduled tasks while the desktop app or browser mode is open: the in-app scheduler (for
// tasks no OS scheduler runs), the folder triggers and the local webhook. Every run is `oi schedule
// run <id>` in a process of its own — the command line the OS schedulers use — its output appended to
// <data folder>/schedule-logs/<id>.log. One process of a data folder runs them (the desktop app and
// browser mode may both be open): the one holding <data folder>/schedule-service.lock; another looks
// again every minute and takes over when the owner quits or dies (data-folder-lock.ts).

const OWNER_LOCK = 'schedule-service.lock';

/** The desktop app or browser mode that runs the tasks (and notifies their ends), if one is open. */
export function scheduleServiceHolder(dataDir: string): Promise<LockHolder | null> {
  return liveHolder(path.join(dataDir, OWNER_LOCK));
}

export interface ScheduleServiceOptions {
  dataDir: string;
  /** This installation's oi (oi-command.ts); tests give the oi under test. */
  command: OiCommand;
  clock?: SchedulerClock;
  /** Open the webhook (the app and browser mode do; false in tests of the scheduler alone). */
  webhook?: boolean;
  /** The app's events: each run's end is emitted there (run-watch.ts), for the notifications. */
  events?: EventBus;
  /** How often a process that does not run the tasks looks whether it may take over (a minute). */
  ownerRetryMs?: number;
  log(line: string): void;
}

export interface ScheduleService {
  /** Started only while this process runs the tasks. */
  scheduler: InAppScheduler;
  webhook: Webhook | null;
  /** The process that runs the tasks instead of this one; null while this one does. */
  runsElsewhere: LockHolder | null;
  close(): Promise<void>;
}

export function runArgs(dataDir: string, schedule: Schedule, trigger: RunTrigger, dueAt: Date | null, file?: string): string[] {
  return [
    'schedule',
    'run',
    schedule.id,
    '--trigger',
    trigger,
    ...(dueAt ? ['--due', dueAt.toISOString()] : []),
    ...(file ? ['--file', file] : []),
    '--data-dir',
    dataDir,
  ];
}

/** Runs a task as its scheduler would, in a process of its own, its output appended to schedule-logs/<id>.log. */
export async function launchRun(
  dataDir: string,
  command: OiCommand,
  log: (line: string) => void,
  schedule: Schedule,
  trigger: RunTrigger,
  dueAt: Date | null,
  file?: string,
): Promise<void> {
  const logs = path.join(dataDir, 'schedule-logs');
  mkdirSync(logs, { recursive: true, mode: 0o700 });
  const fd = openSync(path.join(logs, `${schedule.id}.log`), 'a', 0o600);
  try {
    const code = await runOwnOi({ ...command, args: [...command.args, ...runArgs(dataDir, schedule, trigger, dueAt, file)] }, fd);
    if (code !== 0) log(`${schedule.name}: the run ended with exit code ${code} (see ${path.join(logs, `${schedule.id}.log`)})`);
  } finally {
    closeSync(fd);
  }
}

export async function startScheduleService(opts: ScheduleServiceOptions): Promise<ScheduleService> {
  const store = new ScheduleStore(opts.dataDir);
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const launch = (schedule: Schedule, trigger: RunTrigger, dueAt: Date | null, file?: string) =>
    launchRun(opts.dataDir, opts.command, opts.log, schedule, trigger, dueAt, file);
  const folders = new FolderTriggers((schedule, file) => {
    if (!scheduler.runNow(schedule, 'folder', file))
      opts.log(`${schedule.name}: ${file} arrived while a run was under way; it is not run again for it`);
  }, opts.log);
  const scheduler = new InAppScheduler({
    store,
    clock: opts.clock ?? systemClock,
    launch,
    log: opts.log,
    seen: (all) => folders.sync(all),
  });
  const openHook = (): Promise<Webhook | null> =>
    opts.webhook === false
      ? Promise.resolve(null)
      : openWebhook(opts.dataDir, async (id) => {
          const schedule = (await store.list()).find((s) => s.id === id);
          if (!schedule) return 'unknown';
          return scheduler.runNow(schedule, 'webhook') ? 'started' : 'busy';
        }).catch((err: unknown) => {
          opts.log(`the schedule webhook could not open: ${errorMessage(err)}`);
          return null;
        });
  let lock: HeldLock | null = null;
  let runWatch: RunWatch | null = null;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;
  const service: ScheduleService = {
    scheduler,
    webhook: null,
    runsElsewhere: null,
    async close() {
      closed = true;
      clearTimeout(retry);
      scheduler.stop();
      folders.close();
      runWatch?.close();
      await service.webhook?.close();
      await lock?.release();
    },
  };
  const own = async (): Promise<void> => {
    const got = await tryLock(path.join(opts.dataDir, OWNER_LOCK), 'running the scheduled tasks').catch((err: unknown) => {
      opts.log(`could not tell whether another process runs the scheduled tasks: ${errorMessage(err)}`);
      return null;
    });
    if (got && !('heldBy' in got)) {
      if (closed) return got.release();
      lock = got;
      service.webhook = await openHook();
      // Only the process that runs the tasks tells of their ends: the desktop app and browser mode open together notify once.
      if (opts.events) runWatch = await watchRunRecords(store, runEndedEvents(opts.events, store), opts.log);
      await scheduler.start();
      service.runsElsewhere = null;
      return;
    }
    if (got && service.runsElsewhere?.token !== got.heldBy.token)
      opts.log(
        `they run in another Open Interpreter process of this data folder (pid ${got.heldBy.pid}); this one takes over when it quits`,
      );
    if (got) service.runsElsewhere = got.heldBy;
    if (closed) return;
    retry = setTimeout(() => void own(), opts.ownerRetryMs ?? 60_000);
    retry.unref();
  };
  await own();
  return service;
}
