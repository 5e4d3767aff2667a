import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CellOutput } from '@contract';
import { buildEnvironment } from '../process/env';
import type { DetectContext, LanguageDefinition, Runtime } from '../languages/language';
import { LANGUAGES, availableRuntimes, findLanguage } from '../languages/registry';
import { shell } from '../languages/shell';
import { zsh } from '../languages/zsh';
import { createLimitController, describeLimits } from '../process/limits';
import { diedWhileIdleMessage, interruptedMessage, runtimeChangedMessage, timeoutMessage, unavailableMessage } from '../output/messages';
import { RunControl } from './run-control';
import { RunOutput } from '../output/run-output';
import type { Session, SessionOutcome, SessionRoute } from '../session/session-types';
import { createSessionRouter, type SessionRouter } from './session-router';
import { askedAs, loginShellOf, shellOf } from '../shell/shell-choice';
import type { ExecService, LanguageInfo, RunRequest, RunResult } from './types';

// The execution engine: one live session per (conversation, language), started lazily in the
// conversation's workspace, runs queued per session, every run bounded by its timeout and by the
// escalation in run-control.ts. run() never throws and never stays pending.

export interface ExecServiceOptions {
  /** Where sessions keep their private temp folders (default: the OS temp dir). */
  tmpRoot?: string;
  /** The app's resources folder, holding runners/python/oi_runner.py and runners/node/oi-runner.mjs. */
  resourcesDir: string;
  /** Values of the API keys the app stores: never passed to code unless set in settings.env. */
  secretValues?: () => readonly string[];
  /** The environment sessions inherit (default: process.env). */
  baseEnv?: NodeJS.ProcessEnv;
  /** How long each step of stopping a run waits before using more force (default 2 s). */
  graceMs?: number;
  /** Sandbox name shown in RunLimits (null: none). */
  sandbox?: string | null;
  /** Where sessions run: sandboxed, on a remote kernel, or locally (default: session-router.ts, no remote kernels). */
  router?: SessionRouter;
}

interface SessionSlot {
  conversationId: string;
  language: string;
  session: Promise<Session> | null;
  /** Runs in one session go one at a time, in order. */
  queue: Promise<unknown>;
  executionCount: number;
  /** The runs going on, each with how its cell named the language (askedAs in shell-choice.ts). */
  active: Map<RunControl, string>;
  /** A note for the next run that the previous session ended by itself. */
  pendingNote: string | null;
  /** The route the live session was started on (session-router.ts). */
  routeKey?: string;
  /** The runtime the live session was started with; another one (pythonPath changed) means a new session. */
  runtimeCommand: string | null;
}

export function createExecService(options: ExecServiceOptions): ExecService {
  const tmpRoot = options.tmpRoot ?? tmpdir();
  const graceMs = options.graceMs ?? 2000;
  const slots = new Map<string, SessionSlot>();
  const router = options.router ?? createSessionRouter();
  /** Per conversation and way of naming a language (askedAs), the session its last run went to. */
  const resolved = new Map<string, string>();
  let disposed = false;

  const keyOf = (conversationId: string, language: string): string => `${conversationId}\u0000${language}`;

  /**
   * The sessions a language name reaches for interrupt() and restart(): where cells naming it that
   * way last ran (a `shell` cell in zsh, a `zsh` cell in bash without zsh), else where it would
   * normally run — for a generic shell name before any such cell ran, either shell.
   */
  function sessionsNamed(conversationId: string, name: string): { asked: string; languages: string[] } | null {
    const named = findLanguage(name);
    if (!named) return null;
    const asked = askedAs(name, named);
    const last = resolved.get(keyOf(conversationId, asked));
    if (last) return { asked, languages: [last] };
    return { asked, languages: asked === named.name ? [named.name] : [shell.name, zsh.name] };
  }

  function environment(request: RunRequest, runtime: Runtime): Record<string, string> {
    return buildEnvironment({
      base: options.baseEnv ?? process.env,
      settingsEnv: request.settings.env,
      secretValues: options.secretValues?.() ?? [],
      sessionEnv: runtime.env,
    });
  }

  function detectContext(request: RunRequest | null): DetectContext {
    const path = request?.settings.env.PATH ?? (options.baseEnv ?? process.env).PATH ?? '';
    return { workspace: request?.workspace ?? null, settings: request?.settings ?? null, path };
  }

  function slotFor(conversationId: string, language: string): SessionSlot {
    const key = keyOf(conversationId, language);
    let slot = slots.get(key);
    if (!slot) {
      slot = {
        conversationId,
        language,
        session: null,
        queue: Promise.resolve(),
        executionCount: 0,
        active: new Map(),
        pendingNote: null,
        runtimeCommand: null,
      };
      slots.set(key, slot);
    }
    return slot;
  }

  async function sessionFor(slot: SessionSlot, language: LanguageDefinition, runtime: Runtime, request: RunRequest, route: SessionRoute): Promise<Session> {
    if (slot.session) {
      const existing = await slot.session.catch(() => null);
      const sameRuntime = slot.runtimeCommand === runtime.command;
      if (existing?.alive && slot.routeKey === route.key && sameRuntime) return existing;
      if (existing?.alive && slot.routeKey !== route.key) slot.pendingNote = `Note: the ${language.name} session was restarted to run ${route.label}, so earlier state is gone.`;
      else if (existing?.alive && !sameRuntime) slot.pendingNote = runtimeChangedMessage(language.name, runtime.command);
      if (existing?.diedWhileIdle) slot.pendingNote = diedWhileIdleMessage(language.name, existing.diedWhileIdle);
      await existing?.dispose().catch(() => undefined);
      slot.session = null;
    }
    slot.routeKey = route.key;
    const started = route.start({
      language,
      runtime,
      workspace: request.workspace,
      env: environment(request, runtime),
      tmpRoot,
      resourcesDir: options.resourcesDir,
      limits: createLimitController(),
      settings: request.settings,
    });
    slot.session = started;
    slot.runtimeCommand = runtime.command;
    started.catch(() => {
      if (slot.session === started) slot.session = null;
    });
    return started;
  }

  async function execute(request: RunRequest, language: LanguageDefinition, slot: SessionSlot, shellNote: string | null, asked: string): Promise<RunResult> {
    const started = Date.now();
    const route = await router.route(request, language);
    const limits = route.limits(describeLimits(request.settings, options.sandbox ?? null));
    if (route.refusal) return simpleResult('unavailable', route.refusal, started, limits, null, slot.executionCount);
    const context = detectContext(request);
    const runtime = route.runtime ?? (await language.detect(context).catch(() => null));
    if (!runtime) {
      const message = unavailableMessage(language.label, await availableRuntimes(context));
      return simpleResult('unavailable', message, started, limits, null, slot.executionCount);
    }
    if (request.signal?.aborted) {
      return simpleResult('interrupted', 'Interrupted before it started.', started, limits, null, slot.executionCount);
    }
    const executionCount = ++slot.executionCount;
    const runId = safeRunId(request.runId);
    let session: Session | null = null;
    const output = new RunOutput({
      settings: request.settings,
      spillPath: join(request.workspace, '.oi', 'outputs', `${runId}.log`),
      onTerminal: request.onTerminal,
      onOutput: request.onOutput,
      onBackpressure: (paused) => session?.setPaused(paused),
    });
    try {
      session = await sessionFor(slot, language, runtime, request, route);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return simpleResult('died', `Could not start the ${language.name} session: ${why}`, started, limits, null, executionCount);
    }
    const note = [shellNote, slot.pendingNote].filter(Boolean).join('\n');
    slot.pendingNote = null;
    const control = new RunControl(session, graceMs);
    slot.active.set(control, asked);
    // The run starts before anything can interrupt it, so every interrupt belongs to this run.
    const running = session.run({ runId, code: request.code, settings: request.settings, executionCount, output });
    const timer = setTimeout(() => control.stop('timeout'), request.settings.timeoutMs);
    const onAbort = (): void => control.stop('interrupted');
    request.signal?.addEventListener('abort', onAbort, { once: true });
    if (request.signal?.aborted) onAbort();
    let outcome: SessionOutcome;
    try {
      const abandoned = control.abandoned.then(
        (): SessionOutcome => ({ status: 'died', exitCode: null, cwd: null, message: `The ${language.name} session could not be stopped and was abandoned.` }),
      );
      outcome = await Promise.race([running, abandoned]);
    } catch (err) {
      outcome = { status: 'died', exitCode: null, cwd: null, message: `The run failed inside the engine: ${err instanceof Error ? err.message : String(err)}` };
    } finally {
      control.settle();
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      slot.active.delete(control);
    }
    const survived = session.alive;
    let status = outcome.status;
    let message = outcome.message;
    if (control.reason && status !== 'done') {
      status = control.reason;
      message =
        control.reason === 'timeout'
          ? timeoutMessage(request.settings.timeoutMs, survived, language.name)
          : interruptedMessage(survived, language.name);
    }
    if (!survived) {
      // Release the dead session now (temp folder, cgroup, stray children); the next run starts anew.
      const dead = session;
      if (slot.session) slot.session = null;
      void dead.dispose().catch(() => undefined);
    }
    const finished = await output.finish();
    const outputs: CellOutput[] = finished.outputs;
    const lines: string[] = [];
    if (note) lines.push(note);
    const body = finished.modelText.replace(/\n+$/, '');
    if (body) lines.push(body);
    else if (outputs.length === 0 && !message) lines.push('(no output)');
    if (status === 'failed' && outcome.exitCode !== null && !message) lines.push(`[exit code ${outcome.exitCode}]`);
    if (message) {
      lines.push(`[${message}]`);
      outputs.push({ output_type: 'stream', name: 'stderr', text: `${message}\n` });
      safeCall(() => request.onTerminal?.(`\r\n\x1b[2m${message}\x1b[0m\r\n`));
    }
    // A route that brings its own runtime (a remote kernel) ran no shell of ours.
    const ranIn = route.runtime === null ? shellOf(language) : null;
    return {
      status,
      exitCode: outcome.exitCode,
      outputs,
      forModel: lines.join('\n'),
      durationMs: Date.now() - started,
      executionCount,
      limits,
      cwd: outcome.cwd,
      ...(ranIn ? { shell: ranIn } : {}),
    };
  }

  return {
    async run(request) {
      const started = Date.now();
      const limits = describeLimits(request.settings, options.sandbox ?? null);
      if (disposed) return simpleResult('died', 'The execution engine has shut down.', started, limits, null, 0);
      const named = findLanguage(request.language);
      if (!named) {
        const known = LANGUAGES.map((l) => l.name).join(', ');
        const available = await availableRuntimes(detectContext(request)).catch(() => []);
        return simpleResult(
          'unavailable',
          `Unknown language "${request.language}". Languages this app runs: ${known}; installed here: ${available.join(', ')}.`,
          started,
          limits,
          null,
          0,
        );
      }
      // A shell cell's shell (bash or zsh) decides its session, so it is chosen before the slot.
      const loginShell = loginShellOf({ ...(options.baseEnv ?? process.env), ...request.settings.env });
      const { language, note } = await router
        .choose(request, named, { loginShell, path: detectContext(request).path })
        .catch(() => ({ language: named, note: null }));
      const asked = askedAs(request.language, named);
      resolved.set(keyOf(request.conversationId, asked), language.name);
      const slot = slotFor(request.conversationId, language.name);
      const result = slot.queue.then(() => execute(request, language, slot, note, asked));
      const settled = result.catch(
        (err: unknown): RunResult =>
          simpleResult('died', `The run failed inside the engine: ${err instanceof Error ? err.message : String(err)}`, started, limits, null, slot.executionCount),
      );
      slot.queue = settled;
      return settled;
    },

    interrupt(conversationId, language) {
      const wanted = language === undefined ? null : sessionsNamed(conversationId, language);
      if (language !== undefined && !wanted) return;
      for (const slot of slots.values()) {
        if (slot.conversationId !== conversationId) continue;
        const inSession = !wanted || wanted.languages.includes(slot.language);
        // A run started before the name resolved elsewhere (exec.shell changed) is still reached.
        for (const [control, asked] of slot.active) if (inSession || asked === wanted?.asked) control.stop('interrupted');
      }
    },

    async restart(conversationId, language) {
      const wanted = sessionsNamed(conversationId, language);
      await Promise.all((wanted?.languages ?? []).map(async (name) => {
        const slot = slots.get(keyOf(conversationId, name));
        if (!slot) return;
        for (const control of slot.active.keys()) control.stop('interrupted');
        const session = slot.session;
        slot.session = null;
        slot.executionCount = 0;
        slot.pendingNote = null;
        const s = await session?.catch(() => null);
        await s?.dispose().catch(() => undefined);
      }));
    },

    async languages() {
      const context = detectContext(null);
      return Promise.all(
        LANGUAGES.map(async (l): Promise<LanguageInfo> => {
          const runtime = await l.detect(context).catch(() => null);
          return {
            name: l.name,
            aliases: l.aliases,
            available: runtime !== null,
            version: runtime?.version ?? null,
            persistent: l.kind === 'shell' || l.kind === 'runner',
          };
        }),
      );
    },

    async closeConversation(conversationId) {
      const closing = [...slots.entries()].filter(([, slot]) => slot.conversationId === conversationId);
      for (const key of [...resolved.keys()]) if (key.startsWith(keyOf(conversationId, ''))) resolved.delete(key);
      await Promise.all(closing.map(async ([key, slot]) => {
        slots.delete(key);
        for (const control of slot.active.keys()) control.stop('interrupted');
        const s = await slot.session?.catch(() => null);
        await s?.dispose().catch(() => undefined);
      }));
    },

    async dispose() {
      disposed = true;
      const all = [...slots.values()];
      slots.clear();
      resolved.clear();
      await Promise.all(all.map(async (slot) => {
        for (const control of slot.active.keys()) control.stop('interrupted');
        const s = await slot.session?.catch(() => null);
        await s?.dispose().catch(() => undefined);
      }));
    },
  };
}

function simpleResult(
  status: RunResult['status'],
  message: string,
  started: number,
  limits: RunResult['limits'],
  cwd: string | null,
  executionCount: number,
): RunResult {
  return {
    status,
    exitCode: null,
    outputs: [{ output_type: 'stream', name: 'stderr', text: `${message}\n` }],
    forModel: message,
    durationMs: Date.now() - started,
    executionCount,
    limits,
    cwd,
  };
}

function safeRunId(id: string | undefined): string {
  const clean = id?.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 100);
  return clean || `${new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14)}-${randomBytes(4).toString('hex')}`;
}

function safeCall(fn: () => void): void {
  try {
    fn();
  } catch {
    // The UI's callback failing must not fail the run.
  }
}
