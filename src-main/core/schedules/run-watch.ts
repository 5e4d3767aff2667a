import { watch, type FSWatcher } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage, ScheduleRunRecord } from '@contract';
import type { EventBus } from '../bridge/event-bus';
import type { ScheduleStore } from './schedule-store';

// A scheduled run's end, heard by the app (docs/schedules.md#notifications). Each run is an `oi` process
// of its own — started by the OS scheduler, the in-app scheduler, the webhook or Run now — whose events
// the app never sees; what every run leaves is its record in <data folder>/schedule-runs/, written
// whole (renamed into place) when it ends. The process that runs the tasks watches that folder and
// emits `schedule.run-ended` for each new record, which the notifiers (desktop, browser, contract/
// notifications.ts) turn into a notification that opens the run's conversation.

export interface RunWatch {
  close(): void;
}

/** Calls `ended` once for each record written after the watch starts. */
export async function watchRunRecords(
  store: ScheduleStore,
  ended: (record: ScheduleRunRecord) => void,
  log: (line: string) => void,
): Promise<RunWatch> {
  await mkdir(store.runsDir, { recursive: true, mode: 0o700 });
  const seen = new Set(await readdir(store.runsDir));
  const read = async (name: string) => {
    try {
      const parsed = ScheduleRunRecord.safeParse(JSON.parse(await readFile(path.join(store.runsDir, name), 'utf8')));
      if (parsed.success) ended(parsed.data);
    } catch {
      // Pruned already (a task keeps its last runs only), or not a record: nothing to tell.
    }
  };
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(store.runsDir, (_type, name) => {
      // Records only: the atomic write's temporary file starts with a dot and ends in .tmp.
      if (!name || name.startsWith('.') || !name.endsWith('.json') || seen.has(name)) return;
      seen.add(name);
      void read(name);
    });
    watcher.on('error', (err) => log(`scheduled runs are no longer watched: ${errorMessage(err)}`));
  } catch (err) {
    log(`scheduled runs' ends are not notified: ${errorMessage(err)}`);
  }
  return { close: () => watcher?.close() };
}

/** What the app emits for a run's record (main.ts and browser mode give it to the schedule service). */
export function runEndedEvents(events: EventBus, store: Pick<ScheduleStore, 'list'>) {
  return (record: ScheduleRunRecord): void => {
    void store
      .list()
      .then((all) => all.find((s) => s.id === record.scheduleId)?.name ?? record.scheduleId)
      .catch(() => record.scheduleId)
      .then((name) =>
        events.emit('schedule.run-ended', {
          conversationId: record.conversationId,
          scheduleId: record.scheduleId,
          name,
          result: record.result,
          costUsd: record.costUsd,
        }),
      );
  };
}
