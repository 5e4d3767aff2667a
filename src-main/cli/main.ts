import { mkdirSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Conversation, Settings } from '@contract';
import { defaultAppDataDir } from '../core/app-data-dir';
import type { App } from '../core/app';
import { bootstrapApp } from '../core/bootstrap';
import { buildProvider, keyFor } from '../core/llm/provider-factory';
import { MemorySecretStore } from '../core/secrets/memory-secret-store';
import { openSecretStore } from '../core/secrets/open-secret-store';
import type { SecretStore } from '../core/secrets/secret-store';
import { openConfSettingsStore } from '../core/settings/conf-settings-store';
import { checkWorkspaceFolder } from '../core/workspace/workspace-folder';
import { HELP, parseCliArgs, UsageError, type CliOptions } from './cli-args';
import { CliSession } from './cli-session';
import { runInteractive } from './interactive';
import { warnUnsandboxedAutoRun } from './auto-run-warning';
import { runOneShot } from './one-shot';
import { OverlaySettingsStore } from './overlay-settings-store';
import { styleFor } from './terminal-style';

// `oi`: the terminal interface on the same core as the desktop app — the same handler table and
// events, no server. Conversations and settings live in the app's data folder and are shared.

/** Sensible first models when only --provider is given (local servers: the first model they list). */
const DEFAULT_MODELS: Partial<Record<Settings['provider'], string>> = { openai: 'gpt-4.1', anthropic: 'claude-sonnet-4-6' };

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  // Should the event loop ever drain with a turn still pending, that is a failure, not success.
  process.exitCode = 1;
  let opts: CliOptions;
  try {
    opts = parseCliArgs(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`oi: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  if (opts.help) return void process.stdout.write(`${HELP}\n`), 0;
  const version = env.npm_package_version ?? appVersion();
  if (opts.version) return void process.stdout.write(`${version}\n`), 0;

  const dataDir = defaultAppDataDir();
  mkdirSync(dataDir, { recursive: true });
  const saved = openConfSettingsStore({ dir: dataDir });
  const settings = new OverlaySettingsStore(saved, opts.overrides);
  const notices: string[] = [];
  const secrets = await openSecrets(env, notices);
  const app = bootstrapApp({ dataDir, settings, secrets, resourcesDir: resourcesDir(), version, env, notices });
  const out = opts.json ? process.stderr : process.stdout;
  const style = styleFor(out, env);
  for (const notice of [...notices, ...(saved.notice ? [saved.notice] : [])]) process.stderr.write(style.yellow(`${notice}\n`));

  try {
    if (opts.list) return await listConversations(app);
    if (settings.get().autoRun) await warnUnsandboxedAutoRun(app, (line) => process.stderr.write(style.yellow(`${line}\n`)));
    if (opts.needsModel) await pickModel(settings, secrets, env);
    if (opts.overrides.workspaceRoot) await prepareWorkspace(opts.overrides.workspaceRoot, dataDir);
    let conversation = opts.notebook ? await importNotebookFile(app, opts.notebook, (line) => process.stderr.write(style.yellow(`${line}\n`))) : await openConversation(app, opts.conversation);
    // A conversation keeps its model; flags naming one move it to that model from now on.
    if (conversation.modelChoice && ['provider', 'model', 'baseUrl'].some((f) => Object.hasOwn(opts.overrides, f))) {
      const { provider, model, baseUrl } = settings.get();
      conversation = await app.handlers['conversation.set-model']({ conversationId: conversation.id, choice: { provider, model, baseUrl } }, { transport: 'ipc' });
    }
    const session = new CliSession(app, conversation);
    const current = { ...settings.get(), ...conversation.modelChoice };
    const meta = () => ({ appVersion: version, provider: current.provider, model: current.model });
    if (opts.message !== null) {
      return await runOneShot({ session, message: opts.message, json: opts.json, style, env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
    }
    const banner = [
      style.bold('Open Interpreter') + style.dim(` ${version} — ${current.provider} / ${current.model}${current.autoRun ? ', auto-run on' : ''}`),
      style.dim(`Workspace: ${conversation.workspace}`),
      ...(opts.conversation ? [style.dim(`Continuing "${conversation.title}" (${conversation.items.length} items)`)] : []),
      ...(opts.notebook ? [style.dim(`Imported "${conversation.title}" (${conversation.items.length} items) from ${opts.notebook}`)] : []),
    ].join('\n');
    return await runInteractive({ session, style, env, input: process.stdin, output: process.stdout, banner, meta });
  } catch (err) {
    process.stderr.write(style.red(`oi: ${(err as Error).message}\n`));
    return 1;
  } finally {
    await app.dispose();
  }
}

/**
 * --workspace: made when missing (a terminal user names a new folder as often as an old one), then
 * held to the app's own checks for a chosen folder: a folder this user can read, write and enter.
 */
async function prepareWorkspace(folder: string, dataDir: string): Promise<void> {
  // A file in the way makes mkdir fail; the check below says so in words.
  await mkdir(folder, { recursive: true }).catch(() => undefined);
  await checkWorkspaceFolder(folder, { dataDir });
}

async function openSecrets(env: NodeJS.ProcessEnv, notices: string[]): Promise<SecretStore> {
  if (env.OI_NO_KEYCHAIN === '1') return new MemorySecretStore();
  // Shorter than the desktop app's wait: in a terminal a stuck keychain is worse than env keys only.
  const opened = await openSecretStore({ probeTimeoutMs: 10_000 });
  if (opened.notice && !hasEnvKey(env)) notices.push(opened.notice);
  return opened.store;
}

function hasEnvKey(env: NodeJS.ProcessEnv): boolean {
  return Object.keys(env).some((k) => k.endsWith('_API_KEY') && !!env[k]);
}

async function openConversation(app: App, id: string | null): Promise<Conversation> {
  const ctx = { transport: 'ipc' as const };
  if (id) return app.handlers['conversation.get']({ conversationId: id }, ctx);
  return app.handlers['conversation.create']({}, ctx);
}

/** `oi --notebook file.ipynb`: the notebook as a new conversation (the app's import, its size limit and errors). */
async function importNotebookFile(app: App, file: string, warn: (line: string) => void): Promise<Conversation> {
  const { conversation, warnings } = await app.handlers['notebook.import']({ fileName: path.basename(file), source: { sourcePath: file } }, { transport: 'ipc' });
  for (const warning of warnings) warn(`${path.basename(file)}: ${warning}`);
  return conversation;
}

async function listConversations(app: App): Promise<number> {
  const list = await app.handlers['conversation.list']({}, { transport: 'ipc' });
  if (list.length === 0) process.stdout.write('No saved conversations.\n');
  for (const c of list) process.stdout.write(`${c.id}  ${c.updatedAt.slice(0, 16).replace('T', ' ')}  ${c.title}\n`);
  return 0;
}

/** --provider without --model: the provider's usual model, or the first one a local server lists. */
async function pickModel(settings: OverlaySettingsStore, secrets: SecretStore, env: NodeJS.ProcessEnv): Promise<void> {
  const current = settings.get();
  const fixed = DEFAULT_MODELS[current.provider];
  if (fixed) return settings.override({ model: fixed });
  const keys = { get: async (account: string) => (await secrets.get(account)) ?? null };
  const key = (await keyFor(keys, current)) ?? env.OPENAI_COMPATIBLE_API_KEY ?? null;
  const models = await buildProvider(current, key).listModels(AbortSignal.timeout(10_000));
  const first = models[0];
  if (!first) throw new Error(`the ${current.provider} server lists no models; pull one (ollama pull qwen2.5-coder) or pass --model`);
  settings.override({ model: first });
}

function repoRoot(): string {
  // src-main/cli/main.ts under tsx, out/main/cli.js when built: both two levels below the root.
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
}

function resourcesDir(): string {
  return path.join(repoRoot(), 'resources');
}

function appVersion(): string {
  try {
    return (JSON.parse(readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

main(process.argv.slice(2), process.env).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`oi: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
