import type { RunTrigger, Schedule, ScheduleRunRecord } from '@contract';
import { localRequests } from '../../core/bridge/local-requests';
import { dueBetween, LATE_AFTER_MS } from '../../core/schedules/schedule-times';
import type { ScheduleStore } from '../../core/schedules/schedule-store';
import { notifyRunEndedByOs } from '../../core/schedules/os-notification';
import { runCli, type CliEnd } from '../cli-run';

// `oi schedule run <id>`: one run of a task, headless, as the OS scheduler, the in-app scheduler, the
// webhook and a person start it. It is `oi -m` with the task's prompt, folder and model, under the
// task's unattended policy (docs/schedules.md#unattended): nobody is asked anything, a program asking
// for input gets end-of-file, code runs in the sandbox (required unless the task opted out) or is
// refused when the task only reports, and the budget and time limit end the run. The run is a
// conversation of its own, marked with the task, and recorded with its result and cost.

/** Whether a run started by the clock is on time, or a missed one caught up, and which due time it serves. */
export function classify(schedule: Schedule, trigger: RunTrigger, now: Date): { trigger: RunTrigger; dueAt: Date | null } {
  if (trigger !== 'time') return { trigger, dueAt: null };
  const { latest } = dueBetween(schedule.when, new Date(now.getTime() - 8 * 24 * 3600_000), now);
  if (!latest) return { trigger, dueAt: null };
  return { trigger: now.getTime() - latest.getTime() > LATE_AFTER_MS ? 'missed' : 'time', dueAt: latest };
}

export function argvFor(schedule: Schedule, file: string | null = null): string[] {
  const model = schedule.model
    ? [
        '--provider',
        schedule.model.provider,
        '--model',
        schedule.model.model,
        ...(schedule.model.baseUrl ? ['--base-url', schedule.model.baseUrl] : []),
      ]
    : [];
  return [
    '-m',
    // A folder trigger's new file is named to the model; the app itself never opens it.
    file ? `${schedule.prompt}\n\nThe new file: ${file}` : schedule.prompt,
    '--workspace',
    schedule.workspace,
    ...model,
    ...(schedule.profile ? ['--profile', schedule.profile] : []),
    ...(schedule.policy.code === 'auto-run' ? ['--auto-run'] : []),
    // --sandbox is the person's choice for the run: a sandbox that cannot start refuses the code.
    schedule.policy.sandbox === 'required' ? '--sandbox' : '--no-sandbox',
  ];
}

export async function runScheduled(
  store: ScheduleStore,
  id: string,
  given: { trigger: RunTrigger; dueAt: string | null; file: string | null },
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<CliEnd> {
  const schedule = await store.get(id);
  const now = new Date();
  const { trigger, dueAt } = given.dueAt
    ? { trigger: given.trigger, dueAt: new Date(given.dueAt) }
    : classify(schedule, given.trigger, now);
  const startedAt = now.toISOString();
  const base: Omit<ScheduleRunRecord, 'result' | 'exitCode' | 'costUsd' | 'conversationId' | 'endedAt'> = {
    scheduleId: schedule.id,
    trigger,
    dueAt: dueAt?.toISOString() ?? null,
    startedAt,
  };
  // launchd has no year: a one-off task's calendar entry comes round again a year later.
  if (schedule.when.kind === 'once' && (trigger === 'time' || trigger === 'missed') && (await store.runs(schedule.id)).length > 0) {
    log(`oi: ${schedule.id} is a one-off task that has run already; nothing to do (oi schedule remove ${schedule.id})`);
    await store.recordRun({
      ...base,
      endedAt: startedAt,
      conversationId: null,
      result: 'skipped: a one-off task runs once',
      exitCode: 0,
      costUsd: 0,
    });
    return { code: 0, exit: () => process.exit(0) };
  }
  if (trigger === 'missed') log(`oi: ${schedule.name}: catching up the run due at ${dueAt?.toLocaleString() ?? 'an earlier time'}`);
  let recorded = false;
  const end = await runCli(argvFor(schedule, given.file), env, {
    settings: {
      autoRun: schedule.policy.code === 'auto-run',
      budgetUsd: schedule.policy.budgetUsd,
      exec: { inputRequests: 'end' },
    },
    timeLimitMs: schedule.policy.timeLimitMinutes * 60_000,
    conversation: async (app, workspace) => {
      const when = now.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
      const conv = await app.context.conversations.create(`${schedule.name} · ${when}`, [], workspace ?? schedule.workspace);
      conv.scheduled = { scheduleId: schedule.id, name: schedule.name, trigger };
      await app.context.conversations.save(conv);
      return conv;
    },
    ended: async (app, end) => {
      const conv = await localRequests(app.handlers)('conversation.get', { conversationId: end.conversationId }).catch(() => null);
      recorded = true;
      const record: ScheduleRunRecord = {
        ...base,
        endedAt: new Date().toISOString(),
        conversationId: end.conversationId,
        result: end.reason,
        exitCode: end.code,
        costUsd: conv?.usage.costUsd ?? 0,
      };
      await store.recordRun(record);
      // With the app closed nothing else tells the person (core/schedules/os-notification.ts).
      const told = await notifyRunEndedByOs({
        dataDir: store.dataDir,
        record,
        name: schedule.name,
        notifyOn: app.context.settings.get().notifyOn,
        env,
      });
      log(told.sent ? 'oi: the run’s end was handed to the desktop’s notification service' : `oi: no desktop notification: ${told.why}`);
    },
  });
  // Refused before the turn (the folder, a key, the sandbox): the run still shows, with oi's exit code.
  if (!recorded)
    await store.recordRun({
      ...base,
      endedAt: new Date().toISOString(),
      conversationId: null,
      result: `did not start (oi exited ${end.code}; its log says why)`,
      exitCode: end.code,
      costUsd: 0,
    });
  return end;
}
