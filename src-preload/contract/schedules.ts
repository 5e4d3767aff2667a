import { z } from 'zod';
import { ProviderKind } from './settings';

// Scheduled tasks (docs/schedules.md): a prompt run in a folder at set times, or when a trigger fires,
// with no person at the keyboard. Times are structured, never cron strings: each kind below maps
// exactly onto a systemd OnCalendar expression, a launchd StartCalendarInterval and a Windows Task
// Scheduler trigger, so the three operating systems run a task at the same moments.

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export const Weekday = z.enum(WEEKDAYS);
export type Weekday = z.infer<typeof Weekday>;

/** Intervals that divide an hour (minutes) or a day (hours): they repeat from midnight on every scheduler alike. */
export const MINUTE_STEPS = [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30] as const;
export const HOUR_STEPS = [1, 2, 3, 4, 6, 8, 12] as const;

const ClockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time is HH:MM on a 24-hour clock, 00:00 to 23:59');

/** A moment in the machine's local time, to the minute (as the schedulers take it). */
const LocalMinute = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d$/, 'a date and time is YYYY-MM-DDTHH:MM, in local time')
  .refine((s) => {
    const [y, mo, d] = s.slice(0, 10).split('-').map(Number) as [number, number, number];
    return new Date(y, mo - 1, d).getDate() === d;
  }, 'that day does not exist in that month');

export const ScheduleWhen = z.discriminatedUnion('kind', [
  /** On the days named, at a time of day (local time). */
  z.object({ kind: z.literal('weekly'), days: z.array(Weekday).min(1, 'name at least one day').max(7), time: ClockTime }).strict(),
  /** Every N minutes or hours, counted from midnight. */
  z
    .object({ kind: z.literal('every'), unit: z.enum(['minutes', 'hours']), n: z.number().int() })
    .strict()
    .superRefine((v, ctx) => {
      const steps: readonly number[] = v.unit === 'minutes' ? MINUTE_STEPS : HOUR_STEPS;
      if (!steps.includes(v.n))
        ctx.addIssue({
          code: 'custom',
          path: ['n'],
          message: `every N ${v.unit} needs N to divide ${v.unit === 'minutes' ? 'an hour' : 'a day'}: one of ${steps.join(', ')}`,
        });
    }),
  /** Once, at a date and time. */
  z.object({ kind: z.literal('once'), at: LocalMinute }).strict(),
  /** When a new file appears in a folder (only while the app runs: no OS scheduler watches folders for us). */
  z.object({ kind: z.literal('folder'), folder: z.string().min(1).max(4096) }).strict(),
  /** Only when started: `oi schedule run`, or the local webhook. */
  z.object({ kind: z.literal('manual') }).strict(),
]);
export type ScheduleWhen = z.infer<typeof ScheduleWhen>;

/**
 * What a run may do with nobody there (docs/schedules.md#unattended). The sandbox is required unless
 * the person opted out for this task; code either runs without asking (in the sandbox) or is refused
 * and the model only reports; a budget and a time limit end the run.
 */
export const UnattendedPolicy = z
  .object({
    sandbox: z.enum(['required', 'off']),
    code: z.enum(['auto-run', 'report']),
    budgetUsd: z.number().positive('the budget must be more than $0').max(1000),
    timeLimitMinutes: z
      .number()
      .min(0.1, 'the time limit must be at least 0.1 minutes (6 seconds)')
      .max(24 * 60, 'the time limit must be at most 1440 minutes (a day)'),
  })
  .strict();
export type UnattendedPolicy = z.infer<typeof UnattendedPolicy>;

export const DEFAULT_POLICY: UnattendedPolicy = { sandbox: 'required', code: 'auto-run', budgetUsd: 1, timeLimitMinutes: 30 };

/** Which scheduler starts the task: the operating system's, or the app while it is open. */
export const ScheduleRunner = z.enum(['systemd', 'launchd', 'task-scheduler', 'in-app']);
export type ScheduleRunner = z.infer<typeof ScheduleRunner>;

export const ScheduleId = z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'an id is lowercase letters, digits and dashes');

export const Schedule = z
  .object({
    id: ScheduleId,
    name: z.string().min(1, 'the name is empty').max(200),
    prompt: z.string().min(1, 'the prompt is empty').max(100_000),
    /** An absolute path: where the run's code works (checked as any workspace is). */
    workspace: z.string().min(1).max(4096),
    model: z
      .object({ provider: ProviderKind, model: z.string().min(1).max(256), baseUrl: z.string().max(2048).nullable() })
      .strict()
      .nullable(),
    /** The profile (docs/agent.md#profiles) each run starts with, as `oi --profile`; absent: none. */
    profile: z.string().min(1).max(64).nullable().optional(),
    when: ScheduleWhen,
    policy: UnattendedPolicy,
    runner: ScheduleRunner,
    createdAt: z.string(),
  })
  .strict();
export type Schedule = z.infer<typeof Schedule>;

export const ScheduleFile = z.object({ version: z.literal(1), schedules: z.array(Schedule) }).strict();
export type ScheduleFile = z.infer<typeof ScheduleFile>;

/** What started a run: its time, a missed time caught up, a person, the webhook, a new file. */
export const RunTrigger = z.enum(['time', 'missed', 'manual', 'webhook', 'folder']);
export type RunTrigger = z.infer<typeof RunTrigger>;

/** The mark on a conversation a scheduled run made. */
export const ScheduledMark = z.object({ scheduleId: ScheduleId, name: z.string().max(200), trigger: RunTrigger }).strict();
export type ScheduledMark = z.infer<typeof ScheduledMark>;

/** One run, as recorded when it ends (<data folder>/schedule-runs/). */
export const ScheduleRunRecord = z
  .object({
    scheduleId: ScheduleId,
    trigger: RunTrigger,
    /** The time it was due (a missed run: the time it missed), and when it started and ended. */
    dueAt: z.string().nullable(),
    startedAt: z.string(),
    endedAt: z.string().nullable(),
    conversationId: z.string().nullable(),
    /** done, failed, declined (code refused), budget, time-limit, skipped… and why. */
    result: z.string(),
    exitCode: z.number().int().nullable(),
    costUsd: z.number().nonnegative(),
  })
  .strict();
export type ScheduleRunRecord = z.infer<typeof ScheduleRunRecord>;

/** A task's times in words, as `oi schedule list` and the Schedules screen say them. */
export function describeWhen(when: ScheduleWhen): string {
  switch (when.kind) {
    case 'weekly': {
      const days =
        when.days.length === 7 ? 'every day' : WEEKDAYS.every((d, i) => i < 5 === when.days.includes(d)) ? 'weekdays' : when.days.join(',');
      return `${days} at ${when.time}`;
    }
    case 'every':
      return `every ${when.n} ${when.n === 1 ? when.unit.slice(0, -1) : when.unit}`;
    case 'once':
      return `once, ${when.at.replace('T', ' ')}`;
    case 'folder':
      return `when a new file appears in ${when.folder}`;
    case 'manual':
      return 'when started (oi schedule run, the webhook)';
  }
}
