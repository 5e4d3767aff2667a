import { z } from 'zod';
import { Schedule, ScheduleId, ScheduleRunner, ScheduleRunRecord, ScheduleWhen, UnattendedPolicy } from '../schedules';
import { Ok, type RequestSpec } from './shared';

// The Schedules screen (docs/schedules.md#the-schedules-screen). The store is in the sealed data
// folder: these requests, from the person's own window (IPC with its sender checks, or browser mode's
// socket with its token), and `oi schedule` are the only writers; code a conversation runs reaches
// neither (test/security/attacks/schedule-store.test.ts).

/**
 * What the person fills in. The model is not among them: a task made here runs with the saved
 * settings' model at each run (as `oi schedule add` without --model), and editing keeps a task's own.
 */
export const ScheduleDraft = z
  .object({
    name: z.string().trim().min(1, 'the name is empty').max(200),
    prompt: z.string().trim().min(1, 'the prompt is empty').max(100_000),
    workspace: z
      .string()
      .min(1, 'the folder is empty')
      .max(4096)
      .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p), 'the folder must be an absolute path'),
    when: ScheduleWhen,
    policy: UnattendedPolicy,
  })
  .strict();
export type ScheduleDraft = z.infer<typeof ScheduleDraft>;

export const ScheduleEntry = z.object({
  schedule: Schedule,
  /** The next time it is due (ISO), or null (a folder or manual task, a one-off that has passed). */
  next: z.string().nullable(),
  /** Its last runs, newest first (a missed time caught up is one of them, trigger `missed`). */
  runs: z.array(ScheduleRunRecord),
  /** A run this app started (Run now) is under way. */
  running: z.boolean(),
});
export type ScheduleEntry = z.infer<typeof ScheduleEntry>;

export const ScheduleListing = z.object({
  schedules: z.array(ScheduleEntry),
  /** Where a timed task made now would run, and why the app's own scheduler when it is the fallback. */
  runner: ScheduleRunner,
  note: z.string().nullable(),
});
export type ScheduleListing = z.infer<typeof ScheduleListing>;

export const schedulesRequests = {
  'schedules.list': { input: z.object({}).strict(), output: ScheduleListing },
  /** Adds a task, or with `id` replaces that task's draft fields (its model and creation time are kept). */
  'schedules.save': { input: z.object({ draft: ScheduleDraft, id: ScheduleId.optional() }).strict(), output: ScheduleListing },
  /** Removes a task and its OS scheduler entry; its past runs and their conversations stay. */
  'schedules.remove': { input: z.object({ id: ScheduleId }).strict(), output: ScheduleListing },
  /** Starts a run now, as `oi schedule run` (trigger `manual`); it is recorded when it ends. */
  'schedules.run': { input: z.object({ id: ScheduleId }).strict(), output: Ok },
} as const satisfies Record<string, RequestSpec>;
