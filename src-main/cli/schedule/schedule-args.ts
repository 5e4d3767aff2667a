import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  DEFAULT_POLICY,
  errorMessage,
  ProviderKind,
  Schedule,
  WEEKDAYS,
  type ScheduleRunner,
  type ScheduleWhen,
  type Weekday,
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
};

function days(text: string): Weekday[] {
  if (text === 'daily') return [...WEEKDAYS];
  if (text === 'weekdays') return ['mon', 'tue', 'wed', 'thu', 'fri'];
  const list = text.split(',').map((d) => d.trim().toLowerCase().slice(0, 3));
  const bad = list.find((d) => !(WEEKDAYS as readonly string[]).includes(d));
  if (bad !== undefined) throw new UsageError(`--days: "${bad}" is not a day; give mon,tue,…,sun, weekdays or daily`);
  return list as Weekday[];
}

function when(v: Record<string, string | boolean | undefined>): ScheduleWhen {
  const given = ['days', 'every', 'once', 'folder', 'manual'].filter((k) => v[k] !== undefined);
  if (given.length !== 1)
    throw new UsageError(
      given.length === 0
        ? 'say when the task runs: --days with --at, --every, --once, --folder or --manual'
        : `${given.map((g) => `--${g}`).join(' and ')} each say when the task runs; give one of them`,
    );
  if (v.at !== undefined && v.days === undefined) throw new UsageError('--at goes with --days (for example --days weekdays --at 09:00)');
  if (typeof v.days === 'string') {
    if (typeof v.at !== 'string') throw new UsageError('--days needs --at <HH:MM>, the time of day');
    return { kind: 'weekly', days: days(v.days), time: v.at };
  }
  if (typeof v.every === 'string') {
    const m = /^(\d+)\s*(m|min|minutes?|h|hours?)$/.exec(v.every.trim());
    if (!m) throw new UsageError(`--every: "${v.every}" is not an interval; give minutes as 15m or hours as 2h`);
    return { kind: 'every', unit: m[2]?.startsWith('h') ? 'hours' : 'minutes', n: Number(m[1]) };
  }
  if (typeof v.once === 'string') return { kind: 'once', at: v.once };
  if (typeof v.folder === 'string') return { kind: 'folder', folder: path.resolve(v.folder) };
  return { kind: 'manual' };
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
