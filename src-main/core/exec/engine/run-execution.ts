import { join } from 'node:path';
import type { LanguageDefinition, Runtime } from '../languages/language';
import type { KnownSecret } from '../output/redactor';
import { RunOutput } from '../output/run-output';
import { describeLimits } from '../process/limits';
import type { Session, SessionRoute } from '../session/session-types';
import { shellOf } from '../shell/shell-choice';
import { errorMessage } from '@contract';
import { forgetSudoPassword } from '../input/forget-sudo';
import { randomHex } from '../session/random-hex';
import { assembleResult, finalStatus, simpleResult, type FinishedRun } from './run-result';
import { watchRun, type WatchedRun } from './run-watch';
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
  return (run) => executeRun(options, run);
}

async function executeRun(options: RunExecutionOptions, { request, language, slot, shellNote, asked }: RunInSlot): Promise<RunResult> {
  const startedAt = Date.now();
  const placed = await placeRun(options, request, language);
  const limits = placed.route.limits(describeLimits(request.settings, null));
  if ('refusal' in placed) return simpleResult('unavailable', placed.refusal, startedAt, limits, slot.executionCount);
  if (request.signal?.aborted) return simpleResult('interrupted', 'Interrupted before it started.', startedAt, limits, slot.executionCount);

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

  const watched = await watchRun(options, { request, language, slot, asked, session, output, runId, executionCount });
  return collectResult(
    options,
    { request, language, slot, session, output, runId, placed, watched },
    {
      note,
      stateGone,
      startedAt,
      executionCount,
      limits,
    },
  );
}

/** A run that has ended, with what it ran in. */
interface EndedRun {
  request: RunRequest;
  language: LanguageDefinition;
  slot: SessionSlot;
  session: Session;
  output: RunOutput;
  runId: string;
  placed: { route: SessionRoute; runtime: Runtime };
  watched: WatchedRun;
}

/**
 * The run's last phase: how it ended (final status and message), a dead session released, a sudo
 * password forgotten, the output finished, and the result the model reads.
 */
async function collectResult(
  options: RunExecutionOptions,
  run: EndedRun,
  result: Pick<FinishedRun, 'note' | 'stateGone' | 'startedAt' | 'executionCount' | 'limits'>,
): Promise<RunResult> {
  const { request, language, slot, session, output, runId, watched } = run;
  const { outcome, broker } = watched;
  const survived = session.alive;
  const { status, message } = finalStatus(outcome, watched.stopReason, {
    timeoutMs: request.settings.timeoutMs,
    survived,
    language: language.name,
    waited: watched.waited,
    endsWithStop: options.endsWithStop,
  });
  if (!survived) {
    // Release the dead session now (temp folder, cgroup, stray children); the next run starts anew.
    const dead = session;
    if (slot.session) slot.session = null;
    void dead.dispose().catch(() => undefined);
  }
  // Never run behind the user's back: a sudo password typed for this run is not remembered for the next.
  if (broker.passwordsSentTo.has('sudo')) await forgetSudoPassword(options.environment(request, run.placed.runtime));
  const finished = await output.finish();
  if (message) safeCall(() => request.onTerminal?.(`\r\n\x1b[2m${message}\x1b[0m\r\n`));
  const assembled = assembleResult({
    ...result,
    status,
    exitCode: outcome.exitCode,
    cwd: outcome.cwd,
    ...(outcome.env ? { envChanges: outcome.env } : {}),
    message,
    inputNote: broker.modelNote(),
    output: finished,
    // A route that brings its own runtime (a remote kernel) ran no shell of ours.
    shell: run.placed.route.runtime === null ? shellOf(language) : null,
  });
  // The whole output went to the spill file: the UI links to it (opened without following links).
  return finished.spilled === null ? assembled : { ...assembled, fullOutput: { path: `.oi/outputs/${runId}.log`, ...finished.spilled } };
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
