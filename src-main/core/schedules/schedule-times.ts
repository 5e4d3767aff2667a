import type { ScheduleWhen, Weekday } from '@contract';

// When a timed task is due, in the machine's local time (as systemd, launchd and Task Scheduler count
// it). Only the in-app scheduler needs this: the operating systems compute it from the unit files.

/** A run by the clock later than this after its due time was a missed one caught up (the machine slept, the app was closed). */
export const LATE_AFTER_MS = 2 * 60_000;

const DAY_INDEX: Record<Weekday, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

/** The first due time strictly after `after`, or null when there is none (past one-off, trigger kinds). */
export function nextDue(when: ScheduleWhen, after: Date): Date | null {
  switch (when.kind) {
    case 'weekly': {
      const [h, m] = when.time.split(':').map(Number) as [number, number];
      const days = new Set(when.days.map((d) => DAY_INDEX[d]));
      for (let i = 0; i <= 14; i++) {
        const c = exactLocal(after.getFullYear(), after.getMonth(), after.getDate() + i, h, m);
        if (c && days.has(c.getDay()) && c > after) return c;
      }
      return null;
    }
    case 'every': {
      const base = new Date(after.getFullYear(), after.getMonth(), after.getDate(), after.getHours(), after.getMinutes());
      if (when.unit === 'minutes') {
        // The next minute of the hour that is a multiple of n (the hour's :00 included).
        for (let i = 1; i <= 60; i++) {
          const c = new Date(base.getFullYear(), base.getMonth(), base.getDate(), base.getHours(), base.getMinutes() + i);
          if (c.getMinutes() % when.n === 0) return c;
        }
        return null;
      }
      for (let i = 1; i <= 24; i++) {
        const c = new Date(base.getFullYear(), base.getMonth(), base.getDate(), base.getHours() + i, 0);
        if (c.getHours() % when.n === 0) return c;
      }
      return null;
    }
    case 'once': {
      const at = localMinute(when.at);
      return at && at > after ? at : null;
    }
    default:
      return null;
  }
}

/**
 * The due times in (from, to]: how many a closed app or a sleeping machine missed, and the latest of
 * them. Counted up to a bound (a week of every-minute runs): past it the count says "at least".
 */
export function dueBetween(when: ScheduleWhen, from: Date, to: Date): { count: number; latest: Date | null } {
  let count = 0;
  let latest: Date | null = null;
  for (let t = nextDue(when, from); t && t <= to && count < 10_080; t = nextDue(when, t)) {
    count++;
    latest = t;
  }
  return { count, latest };
}

/** "2026-12-24T09:00" as a Date in local time; null when the clocks skip that minute (spring forward). */
export function localMinute(text: string): Date | null {
  const [date, time] = text.split('T') as [string, string];
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const [h, m] = time.split(':').map(Number) as [number, number];
  return exactLocal(y, mo - 1, d, h, m);
}

/**
 * A local time that exists: in the hour the clocks skip, Date would move it an hour on, where systemd
 * never fires (and a day's 02:30 is simply not due that day). A repeated hour (fall back) is its first.
 */
function exactLocal(y: number, mo: number, d: number, h: number, m: number): Date | null {
  const c = new Date(y, mo, d, h, m);
  return c.getHours() === h && c.getMinutes() === m ? c : null;
}

/** Whether a task runs by the clock (an OS scheduler can run it), rather than by a trigger. */
export function isTimed(when: ScheduleWhen): boolean {
  return when.kind === 'weekly' || when.kind === 'every' || when.kind === 'once';
}
