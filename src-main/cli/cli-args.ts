import path from 'node:path';
import { parseArgs } from 'node:util';
import { describeIssues, ProviderKind, SettingsPatch } from '@contract';

export interface CliOptions {
  message: string | null;
  json: boolean;
  conversation: string | null;
  /** --notebook: start from this .ipynb, imported as a new conversation. */
  notebook: string | null;
  list: boolean;
  help: boolean;
  version: boolean;
  /** Settings for this run only, from the flags; the saved settings are not changed. */
  overrides: SettingsPatch;
  /** --provider was given without --model: pick the provider's default (or first listed) model. */
  needsModel: boolean;
}

export const HELP = `oi — Open Interpreter in the terminal: chat with a model that writes and runs code on this machine.

Usage:
  oi                         interactive chat (type %help inside for commands)
  oi -m "message"            one message, then exit when the agent is done
  oi --list                  list saved conversations

Options:
  -m, --message <text>       send one message and exit (non-zero exit when the turn fails)
      --provider <name>      openai | anthropic | ollama | openai-compatible
      --model <name>         model to use (for example gpt-4.1, claude-sonnet-4-6, qwen2.5-coder:7b)
      --base-url <url>       OpenAI-compatible endpoint (LM Studio, vLLM, llama.cpp, OpenRouter…) or another Ollama
      --workspace <dir>      folder the code runs in, made if missing (default: a new folder per conversation)
  -y, --auto-run             run code without asking
      --conversation <id>    continue a saved conversation (see --list)
      --notebook <file>      start from a Jupyter notebook (.ipynb), imported as a new conversation
      --json                 print one JSON event per line (the app's own events) instead of text
  -h, --help                 show this help
  -v, --version              print the version

Keys come from the OS keychain (saved by the desktop app) or the environment: OPENAI_API_KEY,
ANTHROPIC_API_KEY, OPENAI_COMPATIBLE_API_KEY, OPENROUTER_API_KEY, GROQ_API_KEY… Conversations and
settings are shared with the desktop app (folder: OI_DATA_DIR, or the app's data folder).`;

export class UsageError extends Error {}

export function parseCliArgs(argv: string[]): CliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      allowPositionals: false,
      options: {
        message: { type: 'string', short: 'm' },
        provider: { type: 'string' },
        model: { type: 'string' },
        'base-url': { type: 'string' },
        workspace: { type: 'string' },
        'auto-run': { type: 'boolean', short: 'y' },
        conversation: { type: 'string' },
        notebook: { type: 'string' },
        json: { type: 'boolean' },
        list: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    }));
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\nRun \`oi --help\` for the options.`);
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
  const parsed = SettingsPatch.safeParse(patch);
  if (!parsed.success) throw new UsageError(`invalid option: ${describeIssues(parsed.error.issues).replace(/\bbaseUrl\b/, '--base-url').replace(/\bmodel\b/, '--model')}`);
  if (values.message !== undefined && values.message.trim() === '') throw new UsageError('--message is empty');
  if (values.notebook !== undefined && values.conversation !== undefined) throw new UsageError('--notebook starts a new conversation; it cannot be combined with --conversation');
  return {
    message: values.message ?? null,
    json: values.json ?? false,
    conversation: values.conversation ?? null,
    notebook: values.notebook ? path.resolve(values.notebook) : null,
    list: values.list ?? false,
    help: values.help ?? false,
    version: values.version ?? false,
    overrides: parsed.data,
    needsModel: values.provider !== undefined && values.model === undefined,
  };
}
