import { DEFAULT_POLICY, describeWhen, type ScheduleWhen } from './schedules';
import { ScheduleDraft } from './requests/schedules';
import { whenFromOptions, WhenError } from './schedule-when';

// A scheduled task the model proposes in a conversation with its schedule_task tool (docs/schedules.md
// #from-a-conversation). The call is recorded as a cell of this language whose code is the call's JSON
// arguments, completed with the conversation's folder and profile when the model left them out, so the
// approval card, `oi`'s question and the task made on approval all read the same text the same way.

export { SCHEDULE_LANGUAGE } from './schedule-language';
export const SCHEDULE_TOOL = 'schedule_task';

export interface ScheduleProposal {
  draft: ScheduleDraft;
  profile: string | null;
}

/** The tool's argument names, for the draft's fields a refusal names. */
const ARG_OF: Record<string, string> = {
  name: 'name',
  prompt: 'prompt',
  workspace: 'workspace',
  'when.days': 'days',
  'when.time': 'at',
  'when.n': 'every',
  'when.at': 'once',
  'when.folder': 'folder',
  'policy.budgetUsd': 'budget',
  'policy.timeLimitMinutes': 'time_limit',
};

const STRINGS = ['name', 'prompt', 'workspace', 'days', 'at', 'every', 'once', 'folder', 'profile'] as const;
const BOOLEANS = ['manual', 'report', 'sandbox'] as const;
const NUMBERS = ['budget', 'time_limit'] as const;
const KNOWN = new Set<string>([...STRINGS, ...BOOLEANS, ...NUMBERS]);

const isAbsolute = (p: string) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p);

/** The arguments as JSON, or what is wrong with them. */
function argsObject(code: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(code.trim() === '' ? '{}' : code);
  } catch {
    return 'the arguments are not valid JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'the arguments must be a JSON object';
  return value as Record<string, unknown>;
}

/** The call's arguments read into a task draft, or an error naming the argument that is wrong. */
export function readScheduleProposal(code: string): { ok: true; proposal: ScheduleProposal } | { ok: false; error: string } {
  const a = argsObject(code);
  if (typeof a === 'string') return { ok: false, error: a };
  const unknown = Object.keys(a).find((k) => !KNOWN.has(k));
  if (unknown !== undefined) return { ok: false, error: `"${unknown}" is not an argument of ${SCHEDULE_TOOL}` };
  for (const k of STRINGS) if (a[k] !== undefined && typeof a[k] !== 'string') return { ok: false, error: `"${k}" must be a string` };
  for (const k of BOOLEANS)
    if (a[k] !== undefined && typeof a[k] !== 'boolean') return { ok: false, error: `"${k}" must be true or false` };
  for (const k of NUMBERS) if (a[k] !== undefined && typeof a[k] !== 'number') return { ok: false, error: `"${k}" must be a number` };
  const s = (k: (typeof STRINGS)[number]) => a[k] as string | undefined;
  let when: ScheduleWhen;
  try {
    when = whenFromOptions(
      { days: s('days'), at: s('at'), every: s('every'), once: s('once'), folder: s('folder'), manual: a.manual as boolean | undefined },
      (name) => `"${name}"`,
    );
  } catch (err) {
    if (err instanceof WhenError) return { ok: false, error: err.message };
    throw err;
  }
  if (when.kind === 'folder' && !isAbsolute(when.folder))
    return { ok: false, error: `"folder": ${when.folder} is not an absolute path; give the full path of the folder to watch` };
  const workspace = s('workspace');
  if (workspace !== undefined && !isAbsolute(workspace))
    return { ok: false, error: `"workspace": ${workspace} is not an absolute path; give the full path of the folder the task runs in` };
  const parsed = ScheduleDraft.safeParse({
    name: s('name') ?? '',
    prompt: s('prompt') ?? '',
    workspace: workspace ?? '',
    when,
    policy: {
      sandbox: a.sandbox === false ? 'off' : 'required',
      code: a.report === true ? 'report' : 'auto-run',
      budgetUsd: (a.budget as number | undefined) ?? DEFAULT_POLICY.budgetUsd,
      timeLimitMinutes: (a.time_limit as number | undefined) ?? DEFAULT_POLICY.timeLimitMinutes,
    },
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') ?? '';
    return { ok: false, error: `"${ARG_OF[field] ?? field}": ${issue?.message ?? 'invalid'}` };
  }
  const profile = s('profile');
  return { ok: true, proposal: { draft: parsed.data, profile: profile === undefined || profile === '' ? null : profile } };
}

/** The proposal in lines, as the approval card and `oi`'s question say it: what runs, when, where, how. */
export function describeProposal({ draft, profile }: ScheduleProposal): Array<[string, string]> {
  const { policy } = draft;
  return [
    ['Task', draft.name],
    ['Prompt', draft.prompt],
    ['When', describeWhen(draft.when)],
    ['In', draft.workspace],
    [
      'Code',
      policy.code === 'report'
        ? 'refused: the model only reports'
        : policy.sandbox === 'required'
          ? 'runs without asking, in the sandbox'
          : 'runs without asking, WITHOUT the sandbox',
    ],
    ['Limits', `$${policy.budgetUsd} and ${policy.timeLimitMinutes} min a run`],
    ['Model', profile ? `the profile ${profile}` : 'the saved settings’ model, at each run'],
  ];
}
