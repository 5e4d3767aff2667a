import { mkdirSync, openSync, closeSync } from 'node:fs';
import path from 'node:path';
import type { RunTrigger, Schedule } from '@contract';
import { runOwnOi } from '../programs/app-programs';
import { FolderTriggers } from './folder-triggers';
import { InAppScheduler, systemClock, type SchedulerClock } from './in-app-scheduler';
import type { OiCommand } from './os-units';
import { ScheduleStore } from './schedule-store';
import { openWebhook, type Webhook } from './webhook';

// What runs scheduled tasks while the desktop app or browser mode is open: the in-app scheduler (for
// tasks no OS scheduler runs), the folder triggers and the local webhook. Every run is `oi schedule
// run <id>` in a process of its own — the command line the OS schedulers use — its output appended to
// <data folder>/schedule-logs/<id>.log.

export interface ScheduleServiceOptions {
  dataDir: string;
  /** This installation's oi (oi-command.ts); tests give the oi under test. */
  command: OiCommand;
  clock?: SchedulerClock;
  /** Open the webhook (the app and browser mode do; false in tests of the scheduler alone). */
  webhook?: boolean;
  log(line: string): void;
}

export interface ScheduleService {
  scheduler: InAppScheduler;
  webhook: Webhook | null;
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

export async function startScheduleService(opts: ScheduleServiceOptions): Promise<ScheduleService> {
  const store = new ScheduleStore(opts.dataDir);
  const logs = path.join(opts.dataDir, 'schedule-logs');
  const launch = async (schedule: Schedule, trigger: RunTrigger, dueAt: Date | null, file?: string) => {
    mkdirSync(logs, { recursive: true, mode: 0o700 });
    const fd = openSync(path.join(logs, `${schedule.id}.log`), 'a', 0o600);
    try {
      const code = await runOwnOi(
        { ...opts.command, args: [...opts.command.args, ...runArgs(opts.dataDir, schedule, trigger, dueAt, file)] },
        fd,
      );
      if (code !== 0) opts.log(`${schedule.name}: the run ended with exit code ${code} (see ${path.join(logs, `${schedule.id}.log`)})`);
    } finally {
      closeSync(fd);
    }
  };
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
  const webhook =
    opts.webhook === false
      ? null
      : await openWebhook(opts.dataDir, async (id) => {
          const schedule = (await store.list()).find((s) => s.id === id);
          if (!schedule) return 'unknown';
          return scheduler.runNow(schedule, 'webhook') ? 'started' : 'busy';
        }).catch((err: unknown) => {
          opts.log(`the schedule webhook could not open: ${err instanceof Error ? err.message : String(err)}`);
          return null;
        });
  await scheduler.start();
  return {
    scheduler,
    webhook,
    async close() {
      scheduler.stop();
      folders.close();
      await webhook?.close();
    },
  };
}
