import { closeSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { config as zodConfig } from 'zod/v4/core';
import { errorMessage } from '@contract';
import type { Conversation, Settings, SettingsPatch } from '@contract';
import type { App } from '../core/app';
import { localRequests } from '../core/bridge/local-requests';
import { appVersion } from '../core/app-version';
import { disposeBeforeExit } from '../core/dispose-before-exit';
import { buildProvider, keyFor } from '../core/llm/provider-factory';
import { MemorySecretStore } from '../core/secrets/memory-secret-store';
import type { SecretStore } from '../core/secrets/secret-store';
import { startApp } from '../core/start-app';
import { checkWorkspaceFolder } from '../core/workspace/workspace-folder';
import { parseCliArgs, UsageError, type CliOptions } from './cli-args';
import { CliSession } from './cli-session';
import { chooseConversation } from './conversation-choice';
import { warnUnsandboxedAutoRun } from './auto-run-warning';
import { HELP } from './help-text';
import { runInteractive } from './interactive';
import { probeEndpoint } from './endpoint-probe';
import { checkProviderKey } from './key-check';
import { SetupError } from './setup-error';
import { runOneShot } from './one-shot';
import { OverlaySettingsStore } from './overlay-settings-store';
import { terminalAttention } from './terminal/terminal-attention';
import { defaultAppDataDir } from '../core/app-data-dir';
import { profilePatch, ProfileError, readProfile } from '../core/profiles/profile-store';
import { openSecrets } from './open-cli-secrets';
import { bindRunProfile, profileFlags } from './run-profile';
import { resumeSummary } from './resume-summary';
import { readStdinText } from './stdin-text';
import { PromptLine } from './terminal/prompt-line';
import { forTerminal } from './terminal-places';
import { keyboardInput } from './terminal/controlling-terminal';
import { TerminalInput } from './terminal/terminal-input';
import { styleFor } from './terminal-style';

/** Sensible first models when only --provider is given (local servers: the first model they list). */
const DEFAULT_MODELS: Partial<Record<Settings['provider'], string>> = { openai: 'gpt-4.1', anthropic: 'claude-sonnet-4-6' };

/** How the run ends: main calls exit() once everything is closed. */
export interface CliEnd {
  code: number;
  exit(): void;
}

const exitWith = (code: number): CliEnd => ({ code, exit: () => process.exit(code) });

/** The message to send without a conversation at the keyboard, or null for the interactive chat. */
async function messageFor(opts: CliOptions, stdin: NodeJS.ReadStream): Promise<{ text: string | null; interactiveFirst: string | null }> {
  if (opts.message === '-') return { text: await requireStdin(stdin), interactiveFirst: null };
  if (opts.message !== null) return { text: opts.message, interactiveFirst: null };
  const terminal = !!stdin.isTTY && !!process.stdout.isTTY && !opts.json;
  if (opts.prompt !== null && terminal) return { text: null, interactiveFirst: opts.prompt };
  if (stdin.isTTY) {
    if (opts.prompt !== null) return { text: opts.prompt, interactiveFirst: null };
    if (opts.json) throw new UsageError('--json needs a message: -m "…", a prompt argument, or standard input');
    return { text: null, interactiveFirst: null };
  }
  // Piped: standard input is the message, after the prompt argument when there is one (`cat log | oi "why?"`).
  const piped = await readStdinText(stdin);
  if (opts.prompt !== null) return { text: piped.trim() ? `${opts.prompt}\n\n${piped}` : opts.prompt, interactiveFirst: null };
  if (!piped.trim()) throw new UsageError('nothing to send: standard input was empty (give a message with -m, or run oi in a terminal)');
  return { text: piped, interactiveFirst: null };
}

async function requireStdin(stdin: NodeJS.ReadStream): Promise<string> {
  const text = await readStdinText(stdin);
  if (!text.trim()) throw new UsageError('-m - reads the message from standard input, which was empty');
  return text;
}

/**
 * A run with nobody there (a scheduled task, docs/schedules.md): no terminal is asked anything, even
 * when there is one; the task's policy sets the settings; the conversation is made by the caller
 * (marked as the task's run); the time limit stops the turn; the end is reported.
 */
export interface UnattendedRun {
  settings: SettingsPatch;
  conversation(app: App, workspace: string | null): Promise<Conversation>;
  timeLimitMs: number;
  ended(app: App, end: { code: number; reason: string; conversationId: string }): Promise<void>;
}

/** Told how a one-shot turn ended and in which conversation (a background run records it). */
export type TurnEnded = (end: { code: number; reason: string; conversationId: string }) => Promise<void>;

export async function runCli(argv: string[], env: NodeJS.ProcessEnv, unattended?: UnattendedRun, observed?: TurnEnded): Promise<CliEnd> {
  // This reaches only schemas built from now on, not the contract's (zod reads it when it builds a
  // schema). Turning the JIT off before those too was measured and not kept (round 14, docs/cli.md#start-up):
  // it saved ~13 ms at start and cost ~2 CPU-ms a step, as each step parses the same schemas again.
  zodConfig({ jitless: true });
  let opts: CliOptions;
  try {
    opts = parseCliArgs(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`oi: ${err.message}\n`);
      return exitWith(2);
    }
    throw err;
  }
  if (opts.help) return (process.stdout.write(`${HELP}\n`), exitWith(0));
  if (opts.version) return (process.stdout.write(`${appVersion()}\n`), exitWith(0));

  const errStyle = styleFor(process.stderr, env);
  const fail = (message: string, code: number) => (process.stderr.write(errStyle.red(`oi: ${forTerminal(message)}\n`)), exitWith(code));

  let message: { text: string | null; interactiveFirst: string | null };
  try {
    message = opts.list ? { text: null, interactiveFirst: null } : await messageFor(opts, process.stdin);
  } catch (err) {
    if (err instanceof UsageError) return fail(err.message, 2);
    throw err;
  }
  const interactive = !opts.list && message.text === null;
  // A profile is read from the data folder only (never a path, never the workspace); its settings go
  // under this run's flags.
  let profile: SettingsPatch = {};
  try {
    if (opts.profile !== null) profile = profilePatch(readProfile(defaultAppDataDir(), opts.profile));
  } catch (err) {
    if (err instanceof ProfileError) return fail(err.message, 2);
    throw err;
  }

  // --list needs no keys: the keychain (a D-Bus round trip, or a warning) is not touched.
  const { app, version, dataDir, notices, settings, secrets } = await startApp({
    openSecrets: async () => (opts.list ? { store: new MemorySecretStore(), notice: null } : openSecrets(env)),
    settings: (saved) => {
      const overlay = new OverlaySettingsStore(saved, opts.overrides, profile);
      // Code runs where oi was started, as in every terminal agent; --own-folder for the app's way.
      if (!opts.ownFolder && !opts.overrides.workspaceRoot) overlay.override({ workspaceRoot: process.cwd() });
      if (unattended) overlay.override(unattended.settings);
      return overlay;
    },
    // The terminal oi runs in is the app's own window for computer use: never seen, clicked or typed into
    // (its approvals are answered there). Most X terminals name it in WINDOWID.
    app: {
      env,
      ownWindows: { pids: [process.pid], windowIds: env.WINDOWID && /^\d+$/.test(env.WINDOWID) ? [env.WINDOWID] : [] },
      profileFlags: profileFlags(opts.overrides),
      // A one-shot run exits once the person stops it (Ctrl-C): its sessions end with it.
      ...(interactive ? {} : { endsWithStop: 'this oi -m run' }),
    },
  });
  const out = opts.json ? process.stderr : process.stdout;
  const style = styleFor(out, env);
  // The terminal, when a person is at it: the prompt line for the chat, the key question and approvals.
  // With standard input piped (read above as the message), the keys come from the controlling terminal.
  const terminalOut = process.stdout.isTTY ? process.stdout : process.stderr;
  const keyboard = terminalOut.isTTY && !opts.list && !unattended ? keyboardInput(process.stdin) : null;
  const terminal = keyboard ? new TerminalInput(keyboard.stream, terminalOut, keyboard.fd) : null;
  const prompt = terminal ? new PromptLine(terminal, terminalOut) : null;
  const quiet = (line: string) => process.stderr.write(errStyle.dim(`${line}\n`));
  for (const notice of notices) quiet(notice);

  try {
    if (opts.list) return exitWith(await listConversations(app));
    const workspace = settings.get().workspaceRoot;
    if (workspace && !opts.continueLast && !opts.conversation) await prepareWorkspace(workspace, dataDir, !opts.overrides.workspaceRoot);
    if (opts.needsModel) await pickModel(settings, secrets, env);
    prompt?.start();
    let conversation = unattended
      ? await unattended.conversation(app, workspace)
      : await chooseConversation(app, { id: opts.conversation, last: opts.continueLast, notebook: opts.notebook }, (line) => quiet(line));
    conversation = await bindRunProfile(app, settings, dataDir, conversation, opts.profile);
    if (settings.get().autoRun) await warnUnsandboxedAutoRun(app, (line) => process.stderr.write(errStyle.yellow(`${line}\n`)));
    // A conversation keeps its model; flags naming one move it to that model from now on.
    if (conversation.modelChoice && ['provider', 'model', 'baseUrl'].some((f) => Object.hasOwn(opts.overrides, f))) {
      const { provider, model, baseUrl } = settings.get();
      conversation = await localRequests(app.handlers)('conversation.set-model', {
        conversationId: conversation.id,
        choice: { provider, model, baseUrl },
      });
    }
    if (opts.computer) {
      // Refused where it cannot work, saying why (no X display, Wayland, a missing tool).
      const support = await localRequests(app.handlers)('computer.support', {});
      if (!support.available) throw new SetupError(`--computer: ${support.reason ?? 'computer use is not available here'}`);
      await localRequests(app.handlers)('conversation.set-computer-use', { conversationId: conversation.id, on: true });
    }
    const current = { ...settings.get(), ...conversation.modelChoice };
    await checkProviderKey({
      app,
      settings: current,
      prompt,
      style: errStyle,
      print: (line) => (prompt ? prompt.line(line) : quiet(line)),
    });
    const session = new CliSession(app, conversation);
    // A person at a terminal hears the turn end, fail, or wait for them (never an unattended run's).
    if (!unattended && !opts.json)
      terminalAttention({ out: process.stdout, notifyOn: () => settings.get().notifyOn, onEvent: (l) => session.onEvent(l) });
    if (opts.plan) await session.call('conversation.set-plan-mode', { conversationId: conversation.id, planMode: true });
    const outputDir = path.join(dataDir, 'cli-output');
    const meta = () => ({ appVersion: version, provider: current.provider, model: current.model, resourcesDir: app.context.resourcesDir });
    if (!interactive) {
      // A one-shot run has no person at the code's terminal: a program asking for input gets end-of-input at once.
      settings.override({ exec: { ...opts.overrides.exec, inputRequests: 'end' } });
      const code = await runOneShot({
        session,
        message: message.text ?? '',
        json: opts.json,
        style,
        errStyle,
        env,
        prompt,
        stdout: process.stdout,
        stderr: process.stderr,
        outputDir,
        timeLimitMs: unattended?.timeLimitMs,
        ended: async (end) => {
          const seen = { ...end, conversationId: session.conversationId };
          await observed?.(seen);
          await unattended?.ended(app, seen);
        },
      });
      return await closeAll(app, prompt, code, false);
    }
    if (!prompt) throw new SetupError('the interactive chat needs a terminal; give a message with -m or on standard input');
    const resumed = opts.continueLast || opts.conversation ? resumeSummary(conversation, style) : [];
    const banner = [
      style.bold('Open Interpreter') +
        style.dim(` ${version} — ${current.provider} / ${current.model}${current.autoRun ? ', auto-run on' : ''}`),
      style.dim(`Code runs in ${conversation.workspace}`),
      ...(conversation.profile ? [style.dim(`Profile: ${conversation.profile} (its settings apply to this conversation)`)] : []),
      ...(opts.plan ? [style.dim('Plan mode: code runs read-only in the sandbox until you approve a plan (/plan turns it off).')] : []),
      ...resumed,
      ...(opts.notebook ? [style.dim(`Imported "${conversation.title}" (${conversation.items.length} items) from ${opts.notebook}`)] : []),
    ].join('\n');
    // A server that does not answer is said at once, not after the first message (without delaying the prompt).
    void probeEndpoint(app, current).then((problem) => problem && prompt.line(style.yellow(problem)));
    const end = await runInteractive({ session, style, env, prompt, banner, meta, firstMessage: message.interactiveFirst, outputDir });
    return await closeAll(app, prompt, end.code, end.hungUp);
  } catch (err) {
    prompt?.close();
    await disposeBeforeExit(app, quiet);
    if (err instanceof SetupError || err instanceof UsageError) return fail(err.message, 2);
    return fail(errorMessage(err), 1);
  }
}

/**
 * Disposing stops the sessions (and so the code still running), bounded so that a part that never
 * finishes closing cannot keep a finished `oi` alive. After a hangup the terminal is gone:
 * Node would restore its mode at exit, fail with EIO and abort — so stdio is closed first.
 */
async function closeAll(app: App, prompt: PromptLine | null, code: number, hungUp: boolean): Promise<CliEnd> {
  prompt?.close();
  await disposeBeforeExit(app, (line) => process.stderr.write(`oi: ${line}\n`));
  return {
    code,
    exit: () => {
      if (hungUp) for (const fd of [0, 1, 2]) safeClose(fd);
      process.exit(code);
    },
  };
}

function safeClose(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

/**
 * The folder the code runs in: the current folder, or --workspace (made when missing — a terminal
 * user names a new folder as often as an old one), held to the app's own checks for a chosen folder.
 */
async function prepareWorkspace(folder: string, dataDir: string, isCurrent: boolean): Promise<void> {
  // A file in the way makes mkdir fail; the check below says so in words.
  if (!isCurrent) await mkdir(folder, { recursive: true }).catch(() => undefined);
  try {
    await checkWorkspaceFolder(folder, { dataDir });
  } catch (err) {
    if (!isCurrent) throw err;
    throw new SetupError(
      `code runs in the current folder, and ${errorMessage(err)}; start oi in another folder, or pass --own-folder or --workspace <dir>`,
    );
  }
}

async function listConversations(app: App): Promise<number> {
  const list = await localRequests(app.handlers)('conversation.list', {});
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
  const key = (await keyFor(keys, current, current)) ?? env.OPENAI_COMPATIBLE_API_KEY ?? null;
  const models = await buildProvider(current, key).listModels(AbortSignal.timeout(10_000));
  const first = models[0];
  if (!first) throw new SetupError(`the ${current.provider} server lists no models; pull one (ollama pull qwen2.5-coder) or pass --model`);
  settings.override({ model: first });
}
