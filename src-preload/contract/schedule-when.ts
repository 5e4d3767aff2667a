import { WEEKDAYS, type ScheduleWhen, type Weekday } from './schedules';

// The words that say when a task runs, as `oi schedule add` takes them (--days with --at, --every,
// --once, --folder, --manual) and as the model's schedule_task tool takes them (the same names without
// the dashes): one reading of them, so a task proposed in a conversation means what the same options
// mean on the command line. Each refusal names the option, spelt as the caller spells it (`option`).

export interface WhenOptions {
  days?: string | undefined;
  at?: string | undefined;
  every?: string | undefined;
  once?: string | undefined;
  folder?: string | undefined;
  manual?: boolean | undefined;
}

export class WhenError extends Error {}

const KINDS = ['days', 'every', 'once', 'folder', 'manual'] as const;

function days(text: string, option: (name: string) => string): Weekday[] {
  const t = text.trim().toLowerCase();
  if (t === 'daily') return [...WEEKDAYS];
  if (t === 'weekdays') return ['mon', 'tue', 'wed', 'thu', 'fri'];
  const list = t.split(',').map((d) => d.trim().slice(0, 3));
  const bad = list.find((d) => !(WEEKDAYS as readonly string[]).includes(d));
  if (bad !== undefined) throw new WhenError(`${option('days')}: "${bad}" is not a day; give mon,tue,…,sun, weekdays or daily`);
  return list as Weekday[];
}

/** The task's times from the options given; a folder is returned as given (the caller resolves or checks it). */
export function whenFromOptions(v: WhenOptions, option: (name: string) => string): ScheduleWhen {
  const given = KINDS.filter((k) => v[k] !== undefined && v[k] !== false);
  if (given.length !== 1)
    throw new WhenError(
      given.length === 0
        ? `say when the task runs: ${option('days')} with ${option('at')}, ${option('every')}, ${option('once')}, ${option('folder')} or ${option('manual')}`
        : `${given.map(option).join(' and ')} each say when the task runs; give one of them`,
    );
  if (v.at !== undefined && v.days === undefined)
    throw new WhenError(`${option('at')} goes with ${option('days')} (for example ${option('days')} weekdays ${option('at')} 09:00)`);
  if (v.days !== undefined) {
    if (v.at === undefined) throw new WhenError(`${option('days')} needs ${option('at')} <HH:MM>, the time of day`);
    return { kind: 'weekly', days: days(v.days, option), time: v.at };
  }
  if (v.every !== undefined) {
    const m = /^(\d+)\s*(m|min|minutes?|h|hours?)$/.exec(v.every.trim());
    if (!m) throw new WhenError(`${option('every')}: "${v.every}" is not an interval; give minutes as 15m or hours as 2h`);
    return { kind: 'every', unit: m[2]?.startsWith('h') ? 'hours' : 'minutes', n: Number(m[1]) };
  }
  if (v.once !== undefined) return { kind: 'once', at: v.once };
  if (v.folder !== undefined) return { kind: 'folder', folder: v.folder };
  return { kind: 'manual' };
}
