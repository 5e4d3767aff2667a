import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { errorMessage } from '@contract';
import type { Runtime } from '../languages/language';
import { knownSecrets, type KnownSecret } from '../output/redactor';
import { findLanguage } from '../languages/registry';
import { describeLimits } from '../process/limits';
import { buildEnvironment } from '../process/env';
import { createRunExecution, type RunExecutionOptions } from './run-execution';
import { liveRunKey } from './run-watch';
import { createContextDetection } from './detect-context';
import { languagesOf, pythonOf } from './runtime-queries';
import { createSessionPreparation } from './run-placement';
import type { Session } from '../session/session-types';
import { simpleResult } from './run-result';
import { createSessionRouter, type SessionRouter } from './session-router';
import { SessionSlots } from './session-slots';
import { createAdmission, unknownLanguage } from './run-admission';
import { idleEndedMessage } from '../output/messages';
import type { ExecService, RunRequest, RunResult } from './types';

// The execution engine: one live session per (conversation, language), started lazily in the
// conversation's workspace, runs queued per session, every run bounded by its timeout and by the
// escalation in run-control.ts. run() never throws and never stays pending.
//
// Its parts: the session table (session-slots.ts), each slot's run queue (run-queue.ts), one run's
// execution (run-execution.ts) and the result the model reads (run-result.ts). This file resolves
// the language and hands the run to its slot's queue.

export interface ExecServiceOptions {
  /** Where sessions keep their private temp folders (default: the OS temp dir). */
  tmpRoot?: string;
  /** The app's resources folder, holding runners/python/oi_runner.py and runners/node/oi-runner.mjs. */
  resourcesDir: string;
  /** Values of the API keys the app stores: never passed to code unless set in settings.env. */
  secretValues?: () => readonly string[];
  /** The keys with what they are ('openai key'): also redacted from everything a run gives back. */
  secrets?: () => readonly KnownSecret[];
  /** The environment sessions inherit (default: process.env). */
  baseEnv?: NodeJS.ProcessEnv;
  /** How long each step of stopping a run waits before using more force (default 2 s). */
  graceMs?: number;
  /** Where sessions run: sandboxed, on a remote kernel, or locally (default: session-router.ts, no remote kernels). */
  router?: SessionRouter;
  /**
   * What ends when the user stops a run, when that is more than the run (`oi -m`: the whole oi process
   * and its sessions, 'this oi -m run'): the run's note says so instead of "keeps its state".
   */
  endsWithStop?: string;
}

export function createExecService(options: ExecServiceOptions): ExecService {
  const baseEnv = options.baseEnv ?? process.env;
  const router = options.router ?? createSessionRouter();
  const slots = new SessionSlots();
  /** Runs going on, for typing into their terminal. */
  const live = new Map<string, Session>();
  let disposed = false;

  const tmpRoot = options.tmpRoot ?? tmpdir();
  /** Every key the app holds, labelled; a bare value from secretValues is just 'key'. */
  const secrets = (): KnownSecret[] => knownSecrets(options.secrets, options.secretValues);
  const secretValues = (): string[] => secrets().map((s) => s.value);

  const detectContext = createContextDetection({ baseEnv, router, tmpRoot, secretValues });
  const admit = createAdmission({ baseEnv, router, slots, detectContext });

  const executionOptions = runExecutionOptions(options, { baseEnv, router, tmpRoot, detectContext, live, secrets });
  const execute = createRunExecution(executionOptions);
  const prepareSession = createSessionPreparation(executionOptions);
  /** The run itself (run() below marks the conversation's sessions in use around it). */
  async function runInSlot(request: RunRequest, started: number): Promise<RunResult> {
    const limits = describeLimits(request.settings, null);
    if (disposed) return simpleResult('died', 'The execution engine has shut down.', started, limits, 0);
    const named = findLanguage(request.language);
    if (!named) return unknownLanguage(request, detectContext, started, limits);
    // A shell cell's shell (bash or zsh) decides its session, so it is chosen before the slot.
    // Choosing takes a while and may take longer for one run than for the next: the runs of a
    // conversation are admitted one after the other, so each joins its queue in the order asked.
    // Only SHELL is read: copying the whole process environment for it cost more than the rest of
    // a warm run's admission.
    const { language, note, asked, slot } = await admit(request, named);
    return slot.queue.push(
      () => execute({ request, language, slot, shellNote: note, asked }),
      (err) => simpleResult('died', `The run failed inside the engine: ${errorMessage(err)}`, started, limits, slot.executionCount),
    );
  }

  return {
    async run(request) {
      const started = Date.now();
      // From the request on, waiting for its turn included: an idle sweep never ends these sessions.
      const over = slots.using(request.conversationId, started);
      try {
        return await runInSlot(request, started);
      } finally {
        over();
      }
    },

    async prepare(request) {
      const named = findLanguage(request.language);
      if (disposed || !named) return;
      const over = slots.using(request.conversationId, Date.now());
      try {
        const { language, slot } = await admit(request, named);
        // A session there already: the run finds it (or, were it to have died, starts the next).
        if (slot.session) return;
        // In the slot's queue, so it never starts a session under a run going on there.
        await slot.queue.push(
          () => prepareSession({ request, language, slot }),
          () => undefined,
        );
      } catch {
        // The run that follows starts the session and reports what went wrong.
      } finally {
        over();
      }
    },

    interrupt: (conversationId, language) => slots.interrupt(conversationId, language),

    typeInto(conversationId, runId, data) {
      const terminal = live.get(liveRunKey(conversationId, runId))?.terminal?.();
      if (!terminal) return false;
      terminal.write(data);
      return true;
    },
    restart: (conversationId, language) => slots.restart(conversationId, language),

    python: (scope) => pythonOf(detectContext, scope),

    languages: (scope) => languagesOf(detectContext, scope),

    closeConversation: (conversationId) => slots.close(conversationId),

    endIdle: (idleMs, keep = () => false, now = Date.now()) =>
      slots.endIdle(now - idleMs, keep, (language) => idleEndedMessage(language, idleMs)),

    async dispose() {
      disposed = true;
      await slots.closeAll();
    },
  };
}

/** What each run is executed with: the service's options and the parts it built from them. */
function runExecutionOptions(
  options: ExecServiceOptions,
  parts: Pick<RunExecutionOptions, 'router' | 'detectContext' | 'live'> & {
    baseEnv: NodeJS.ProcessEnv;
    tmpRoot: string;
    secrets: () => KnownSecret[];
  },
): RunExecutionOptions {
  const { baseEnv, router, tmpRoot, detectContext, live, secrets } = parts;
  const secretValues = (): string[] => secrets().map((s) => s.value);
  // A script, so it is not on Windows, where programs look for an .exe or .cmd.
  const noEditor = process.platform === 'win32' ? undefined : join(options.resourcesDir, 'bin', 'oi-no-editor');
  return {
    router,
    graceMs: options.graceMs ?? 2000,
    sessionBase: { tmpRoot, resourcesDir: options.resourcesDir },
    detectContext,
    live,
    environment: (request: RunRequest, runtime: Runtime) =>
      buildEnvironment({
        base: baseEnv,
        settingsEnv: request.settings.env,
        secretValues: secretValues(),
        sessionEnv: runtime.env,
        noEditor,
      }),
    secrets,
    endsWithStop: options.endsWithStop,
  };
}
