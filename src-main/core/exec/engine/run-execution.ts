import { join } from 'node:path';
import type { LanguageDefinition } from '../languages/language';
import type { KnownSecret } from '../output/redactor';
import { RunOutput } from '../output/run-output';
import { describeLimits } from '../process/limits';
import type { Session, SessionOutcome } from '../session/session-types';
import { shellOf } from '../shell/shell-choice';
import { errorMessage } from '@contract';
import { RunControl } from './run-control';
import { forgetSudoPassword } from '../input/forget-sudo';
import { randomHex } from '../session/random-hex';
import { startRunInput } from './run-input';
import { RunTimer } from './run-timer';
import { assembleResult, finalStatus, simpleResult } from './run-result';
import { placeRun, startIn, type PlacementOptions } from './run-placement';
import type { SessionSlot } from './session-slots';
import type { RunRequest, RunResult } from './types';

// One run, from its turn in the queue to its result: where it runs (route), with what (runtime), in
// which session (the slot's, started or replaced as needed), bounded by its timeout and its abort
// signal through RunControl's escalation. Never throws for anything the run itself does.

export interface RunExecutionOptions extends PlacementOptions {
  /** How long each step of stopping a run waits before using more force. */
  graceMs: number;
  /** The keys the app holds, redacted from the run's output (output/redactor.ts). */
  secrets?(): readonly KnownSecret[];
  /** Runs going on, by conversation and run id, for typing into their terminal (ExecService.typeInto). */
  live?: Map<string, Session>;
  /** What ends when the user stops a run (ExecServiceOptions.endsWithStop). */
  endsWithStop?: string;
}

/** The key of a run going on in RunExecutionOptions.live. */
export function liveRunKey(conversationId: string, runId: string): string {
  return `${conversationId}\u0000${runId}`;
}

export interface RunInSlot {
  request: RunRequest;
  /** The language the run really goes to (for shell cells, the chosen shell). */
  language: LanguageDefinition;
  slot: SessionSlot;
  /** Why the run went to another shell than asked, for the model. */
  shellNote: string | null;
  /** How the cell named the language (askedAs in shell-choice.ts). */
  asked: string;
}

export type ExecuteRun = (run: RunInSlot) => Promise<RunResult>;

export function createRunExecution(options: RunExecutionOptions): ExecuteRun {
  return async ({ request, language, slot, shellNote, asked }) => {
    const startedAt = Date.now();
    const placed = await placeRun(options, request, language);
    const limits = placed.route.limits(describeLimits(request.settings, null));
    if ('refusal' in placed) return simpleResult('unavailable', placed.refusal, startedAt, limits, slot.executionCount);
    const { route, runtime } = placed;
    if (request.signal?.aborted)
      return simpleResult('interrupted', 'Interrupted before it started.', startedAt, limits, slot.executionCount);

    const executionCount = (slot.executionCount = request.executionCount ?? slot.executionCount + 1);
    const runId = safeRunId(request.runId);
    let session: Session | null = null;
    const output = new RunOutput({
      settings: request.settings,
      spillPath: join(request.workspace, '.oi', 'outputs', `${runId}.log`),
      spillRoot: request.workspace,
      secrets: options.secrets?.() ?? [],
      onTerminal: request.onTerminal,
      onOutput: request.onOutput,
      onDisplayUpdate: request.onDisplayUpdate,
      onBackpressure: (paused) => session?.setPaused(paused),
    });
    try {
      session = await startIn(options, request, language, slot, placed);
    } catch (err) {
      return simpleResult('died', `Could not start the ${language.name} session: ${errorMessage(err)}`, startedAt, limits, executionCount);
    }
    const note = [shellNote, slot.pendingNote].filter(Boolean).join('\n');
    // The earlier session's state is gone (ended idle, died, replaced): the person reads it too, first.
    const stateGone = slot.pendingNote;
    slot.pendingNote = null;
    if (stateGone) safeCall(() => request.onTerminal?.(`\x1b[2m${stateGone}\x1b[0m\r\n`));

    const control = new RunControl(session, Math.max(options.graceMs, session.stopGraceMs ?? 0));
    slot.active.set(control, asked);
    // Paused while a person is asked for input (docs/exec.md#input).
    const timer = new RunTimer(request.settings.timeoutMs, () => control.stop('timeout'));
    let waited: { command: string | null; keys: boolean } | null = null;
    const input = startRunInput({
      request,
      session,
      output,
      timer,
      onStuck: (reader, question) => {
        waited = { command: reader.command || null, keys: question.mode === 'keys' };
        control.stop('no-input');
      },
    });
    // The code's screen actions (their approval waits) end with the run, or when it is stopped.
    const actionsOver = new AbortController();
    control.onStop = () => {
      input.close();
      actionsOver.abort();
    };
    const liveKey = liveRunKey(request.conversationId, runId);
    options.live?.set(liveKey, session);
    // The run starts before anything can interrupt it, so every interrupt belongs to this run.
    const computer = request.onComputer;
    const running = session.run({
      runId,
      code: request.code,
      settings: request.settings,
      executionCount,
      output,
      input: input.broker,
      // The time the person takes to approve an action is not the code's: the clock stops, as for input.
      ...(computer
        ? {
            computer: (action, signal) => {
              timer.pause();
              return computer(action, AbortSignal.any([signal, actionsOver.signal])).finally(() => timer.resume());
            },
          }
        : {}),
    });
    const onAbort = (): void => control.stop('interrupted');
    request.signal?.addEventListener('abort', onAbort, { once: true });
    if (request.signal?.aborted) onAbort();
    let outcome: SessionOutcome;
    try {
      const abandoned = control.abandoned.then((): SessionOutcome => ({
        status: 'died',
        exitCode: null,
        cwd: null,
        message: `The ${language.name} session could not be stopped and was abandoned.`,
      }));
      outcome = await Promise.race([running, abandoned]);
    } catch (err) {
      outcome = { status: 'died', exitCode: null, cwd: null, message: `The run failed inside the engine: ${errorMessage(err)}` };
    } finally {
      control.settle();
      timer.clear();
      input.close();
      actionsOver.abort();
      options.live?.delete(liveKey);
      request.signal?.removeEventListener('abort', onAbort);
      slot.active.delete(control);
    }

    const survived = session.alive;
    const { status, message } = finalStatus(outcome, control.reason, {
      timeoutMs: request.settings.timeoutMs,
      survived,
      language: language.name,
      waited,
      endsWithStop: options.endsWithStop,
    });
    if (!survived) {
      // Release the dead session now (temp folder, cgroup, stray children); the next run starts anew.
      const dead = session;
      if (slot.session) slot.session = null;
      void dead.dispose().catch(() => undefined);
    }
    // Never run behind the user's back: a sudo password typed for this run is not remembered for the next.
    if (input.broker.passwordsSentTo.has('sudo')) await forgetSudoPassword(options.environment(request, runtime));
    const finished = await output.finish();
    if (message) safeCall(() => request.onTerminal?.(`\r\n\x1b[2m${message}\x1b[0m\r\n`));
    const result = assembleResult({
      status,
      exitCode: outcome.exitCode,
      cwd: outcome.cwd,
      ...(outcome.env ? { envChanges: outcome.env } : {}),
      message,
      note,
      stateGone,
      inputNote: input.broker.modelNote(),
      output: finished,
      startedAt,
      executionCount,
      limits,
      // A route that brings its own runtime (a remote kernel) ran no shell of ours.
      shell: route.runtime === null ? shellOf(language) : null,
    });
    // The whole output went to the spill file: the UI links to it (opened without following links).
    return finished.spilled === null ? result : { ...result, fullOutput: { path: `.oi/outputs/${runId}.log`, ...finished.spilled } };
  };
}

function safeRunId(id: string | undefined): string {
  const clean = id?.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 100);
  return clean || `${new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14)}-${randomHex(4)}`;
}

function safeCall(fn: () => void): void {
  try {
    fn();
  } catch {
    // The UI's callback failing must not fail the run.
  }
}
