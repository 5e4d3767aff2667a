import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  DEFAULT_POLICY,
  errorMessage,
  ProviderKind,
  Schedule,
  whenFromOptions,
  WhenError,
  type ScheduleRunner,
  type ScheduleWhen,
  type WhenOptions,
} from '@contract';
import { scheduleIdFor } from '../../core/schedules/schedule-admin';
import { UsageError } from '../cli-args';

// `oi schedule add`'s options, turned into a task the store's schema accepts. Every refusal names the
// option that was wrong, in the option's own spelling (--days, --at, --every…), not the schema's.

export const ADD_HELP = `oi schedule add --name <name> --prompt <text> --workspace <dir> <when> [options]

When (one of):
  --days <mon,wed|weekdays|daily> --at <HH:MM>   on those days at that time (local time)
  --every <N>m | <N>h                        every N minutes (N divides 60) or hours (N divides 24), from midnight
  --once <YYYY-MM-DDTHH:MM>                  once, at that moment
  --folder <dir>                             when a new file appears there (while the app is open)
  --manual                                   only when started: oi schedule run <id>, or the webhook

Options:
  --provider, --model, --base-url            the model (default: the saved settings' at each run)
  --profile <name>                           the profile each run starts with (docs/agent.md#profiles)
  --report                                   refuse code and only report (default: code runs, in the sandbox)
  --no-sandbox                               run this task's code without the sandbox (default: required)
  --budget <dollars>                         stop the run past this cost (default ${DEFAULT_POLICY.budgetUsd})
  --time-limit <minutes>                     stop the run after this long (default ${DEFAULT_POLICY.timeLimitMinutes})
  --in-app                                   run it with the app's own scheduler, not the OS's`;

const FIELD_FLAGS: Record<string, string> = {
  name: '--name',
  prompt: '--prompt',
  workspace: '--workspace',
  'when.days': '--days',
  'when.time': '--at',
  'when.n': '--every',
  'when.at': '--once',
  'when.folder': '--folder',
  'policy.budgetUsd': '--budget',
  'policy.timeLimitMinutes': '--time-limit',
  'model.model': '--model',
  'model.baseUrl': '--base-url',
  profile: '--profile',
};

/** The times, read as the tool of a conversation reads them (contract/schedule-when.ts); a folder is resolved here. */
function when(v: WhenOptions): ScheduleWhen {
  try {
    const w = whenFromOptions(v, (name) => `--${name}`);
    return w.kind === 'folder' ? { kind: 'folder', folder: path.resolve(w.folder) } : w;
  } catch (err) {
    throw err instanceof WhenError ? new UsageError(err.message) : err;
  }
}

function positive(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isFinite(n)) throw new UsageError(`${flag}: "${text}" is not a number`);
  return n;
}

/** A task from `oi schedule add`'s arguments; the runner is decided by the caller (the OS's, or in-app). */
export function parseAddArgs(argv: string[], osRunner: ScheduleRunner): Schedule {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        name: { type: 'string' },
        prompt: { type: 'string', short: 'm' },
        workspace: { type: 'string' },
        days: { type: 'string' },
        at: { type: 'string' },
        every: { type: 'string' },
        once: { type: 'string' },
        folder: { type: 'string' },
        manual: { type: 'boolean' },
        provider: { type: 'string' },
        model: { type: 'string' },
        'base-url': { type: 'string' },
        profile: { type: 'string' },
        report: { type: 'boolean' },
        'no-sandbox': { type: 'boolean' },
        budget: { type: 'string' },
        'time-limit': { type: 'string' },
        'in-app': { type: 'boolean' },
      },
    }));
  } catch (err) {
    throw new UsageError(`${errorMessage(err)}\n\n${ADD_HELP}`);
  }
  for (const required of ['name', 'prompt', 'workspace'] as const)
    if (values[required] === undefined) throw new UsageError(`--${required} is missing\n\n${ADD_HELP}`);
  if ((values.model === undefined) !== (values.provider === undefined))
    throw new UsageError('--provider and --model go together: give both, or neither');
  if (values.provider !== undefined && !ProviderKind.safeParse(values.provider).success)
    throw new UsageError(`--provider must be one of ${ProviderKind.options.join(', ')}; got "${values.provider}"`);
  const name = values.name ?? '';
  const candidate = {
    id: scheduleIdFor(name),
    name,
    prompt: values.prompt,
    // Relative to where oi was started, as --workspace is for oi itself; checked as a workspace at each run.
    workspace: path.resolve(values.workspace ?? '.'),
    model: values.provider ? { provider: values.provider, model: values.model, baseUrl: values['base-url'] ?? null } : null,
    ...(values.profile !== undefined ? { profile: values.profile } : {}),
    when: when(values),
    policy: {
      sandbox: values['no-sandbox'] ? 'off' : 'required',
      code: values.report ? 'report' : 'auto-run',
      budgetUsd: positive('--budget', values.budget, DEFAULT_POLICY.budgetUsd),
      timeLimitMinutes: positive('--time-limit', values['time-limit'], DEFAULT_POLICY.timeLimitMinutes),
    },
    runner: 'in-app' as ScheduleRunner,
    createdAt: new Date().toISOString(),
  };
  const timed = candidate.when.kind === 'weekly' || candidate.when.kind === 'every' || candidate.when.kind === 'once';
  candidate.runner = timed && values['in-app'] !== true ? osRunner : 'in-app';
  const parsed = Schedule.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') ?? '';
    throw new UsageError(`${FIELD_FLAGS[field] ?? field}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}
