import path from 'node:path';
import { parseArgs } from 'node:util';
import { errorMessage, describeIssues, ProviderKind, SettingsPatch } from '@contract';

export interface CliOptions {
  /** -m: the message; "-" means standard input. */
  message: string | null;
  /** `oi "do this"`: the words after the options, as one message. */
  prompt: string | null;
  json: boolean;
  /** --conversation: an id, or the first characters of one. */
  conversation: string | null;
  /** -c/--continue: the conversation used last. */
  continueLast: boolean;
  /** --notebook: start from this .ipynb, imported as a new conversation. */
  notebook: string | null;
  /** --own-folder: a new folder of the conversation's own (the desktop app's way) instead of the current folder. */
  ownFolder: boolean;
  list: boolean;
  help: boolean;
  version: boolean;
  /** --computer: computer use on for the conversation (docs/computer-use.md). */
  computer: boolean;
  /** Settings for this run only, from the flags; the saved settings are not changed. */
  overrides: SettingsPatch;
  /** --provider was given without --model: pick the provider's default (or first listed) model. */
  needsModel: boolean;
  /** --plan: the conversation is in plan mode (docs/cli.md#plan-mode). */
  plan: boolean;
  /** --profile: a named set of settings from the data folder (docs/agent.md#profiles); the flags go on top. */
  profile: string | null;
}

export class UsageError extends Error {}

export function parseCliArgs(argv: string[]): CliOptions {
  let values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        message: { type: 'string', short: 'm' },
        provider: { type: 'string' },
        model: { type: 'string' },
        'base-url': { type: 'string' },
        workspace: { type: 'string' },
        'own-folder': { type: 'boolean' },
        'auto-run': { type: 'boolean', short: 'y' },
        computer: { type: 'boolean' },
        sandbox: { type: 'boolean' },
        'no-sandbox': { type: 'boolean' },
        continue: { type: 'boolean', short: 'c' },
        conversation: { type: 'string' },
        notebook: { type: 'string' },
        json: { type: 'boolean' },
        plan: { type: 'boolean' },
        profile: { type: 'string' },
        list: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    }));
  } catch (err) {
    throw new UsageError(`${errorMessage(err)}\nRun \`oi --help\` for the options.`);
  }
  const patch: Record<string, unknown> = {};
  if (values.provider !== undefined) {
    const kind = ProviderKind.safeParse(values.provider);
    if (!kind.success) throw new UsageError(`--provider must be one of ${ProviderKind.options.join(', ')}; got "${values.provider}"`);
    patch.provider = kind.data;
  }
  if (values.model !== undefined) patch.model = values.model;
  if (values['base-url'] !== undefined) patch.baseUrl = values['base-url'];
  if (values.workspace !== undefined) patch.workspaceRoot = path.resolve(values.workspace);
  if (values['auto-run']) patch.autoRun = true;
  if (values.sandbox && values['no-sandbox']) throw new UsageError('--sandbox and --no-sandbox contradict each other; give one of them');
  // A flag is this run's choice: a sandbox that cannot start then refuses to run code instead of
  // falling back to running it unsandboxed, as the default does (docs/sandbox.md).
  if (values.sandbox) patch.sandbox = { enabled: true, chosen: true };
  if (values['no-sandbox']) patch.sandbox = { enabled: false, chosen: true };
  const parsed = SettingsPatch.safeParse(patch);
  if (!parsed.success)
    throw new UsageError(
      `invalid option: ${describeIssues(parsed.error.issues)
        .replace(/\bbaseUrl\b/, '--base-url')
        .replace(/\bmodel\b/, '--model')}`,
    );
  if (values.message !== undefined && values.message.trim() === '') throw new UsageError('--message is empty');
  const prompt = positionals.join(' ').trim() || null;
  if (prompt !== null && values.message !== undefined) throw new UsageError('give the message either with -m or as an argument, not both');
  const resumes = [
    values.continue && '--continue',
    values.conversation !== undefined && '--conversation',
    values.notebook !== undefined && '--notebook',
  ].filter(Boolean);
  if (resumes.length > 1) throw new UsageError(`${resumes.join(' and ')} each choose the conversation; give one of them`);
  if (values['own-folder'] && values.workspace !== undefined)
    throw new UsageError('--own-folder and --workspace each choose where the code runs; give one of them');
  return {
    message: values.message ?? null,
    prompt,
    json: values.json ?? false,
    conversation: values.conversation ?? null,
    continueLast: values.continue ?? false,
    notebook: values.notebook ? path.resolve(values.notebook) : null,
    ownFolder: values['own-folder'] ?? false,
    computer: values.computer ?? false,
    list: values.list ?? false,
    help: values.help ?? false,
    version: values.version ?? false,
    overrides: parsed.data,
    needsModel: values.provider !== undefined && values.model === undefined,
    plan: values.plan ?? false,
    profile: values.profile ?? null,
  };
}
