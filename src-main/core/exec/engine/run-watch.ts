import { errorMessage } from '@contract';
import type { InputBroker } from '../input/input-broker';
import type { LanguageDefinition } from '../languages/language';
import type { RunOutput } from '../output/run-output';
import type { Session, SessionOutcome } from '../session/session-types';
import { RunControl, type StopReason } from './run-control';
import { startRunInput, type RunClock, type RunInputSetup } from './run-input';
import { RunTimer } from './run-timer';
import type { SessionSlot } from './session-slots';
import type { RunRequest } from './types';

// A run in its session, watched until it ends: its stop control (timeout, the turn's abort signal,
// escalation: run-control.ts), its clock, the input watch (run-input.ts), the screen actions its
// code asks for, and its place among the live runs (for typing into its terminal). Everything set
// up here is taken down when the run ends, however it ends.

/** The key of a run going on in RunExecutionOptions.live. */
export function liveRunKey(conversationId: string, runId: string): string {
  return `${conversationId}\u0000${runId}`;
}

export interface RunToWatch {
  request: RunRequest;
  language: LanguageDefinition;
  slot: SessionSlot;
  /** How the cell named the language (the slot's active runs are kept by it, for interrupt). */
  asked: string;
  session: Session;
  output: RunOutput;
  runId: string;
  executionCount: number;
}

export interface WatchedRun {
  outcome: SessionOutcome;
  /** Why the control stopped the run, or null when it ended by itself. */
  stopReason: StopReason | null;
  /** What the program waited for, when it was stopped for want of input. */
  waited: { command: string | null; keys: boolean } | null;
  /** The run's input broker: what the program asked for, and the passwords it was sent. */
  broker: InputBroker;
}

export async function watchRun(options: { graceMs: number; live?: Map<string, Session> }, run: RunToWatch): Promise<WatchedRun> {
  const { request, session, slot } = run;
  const control = new RunControl(session, Math.max(options.graceMs, session.stopGraceMs ?? 0));
  slot.active.set(control, run.asked);
  // The run's clock, made once its message is out (below): paused while a person is asked for input
  // (docs/exec.md#input), which cannot happen before then.
  let timer: RunTimer | null = null;
  const clock = { pause: () => timer?.pause(), resume: () => timer?.resume() };
  let waited: { command: string | null; keys: boolean } | null = null;
  const input = startRunInput({
    request,
    session,
    output: run.output,
    timer: clock,
    onStuck: (reader, question) => {
      waited = { command: reader.command || null, keys: question.mode === 'keys' };
      control.stop('no-input');
    },
  });
  // The code's screen actions (their approval waits) end with the run, or when it is stopped. Only
  // for a run that can act on the screen: an AbortSignal and its abort cost a warm run ~0.1 ms (issue 37).
  const actionsOver = request.onComputer ? new AbortController() : null;
  control.onStop = () => {
    input.close();
    actionsOver?.abort();
  };
  const liveKey = liveRunKey(request.conversationId, run.runId);
  options.live?.set(liveKey, session);
  // The run starts before anything can interrupt it, so every interrupt belongs to this run. A warm
  // runner's message goes out within this call (runner-session.ts): what follows — the clock, the
  // terminal's watch, the abort listener — is set up while the runner runs the code, not before it
  // gets it (issue 37). All of it in this same turn, so nothing (an interrupt, input, the end) can
  // come in between.
  const running = startRun(run, input, clock, actionsOver?.signal);
  timer = new RunTimer(request.settings.timeoutMs, () => control.stop('timeout'));
  input.watch();
  const onAbort = (): void => control.stop('interrupted');
  request.signal?.addEventListener('abort', onAbort, { once: true });
  if (request.signal?.aborted) onAbort();
  let outcome: SessionOutcome;
  try {
    outcome = await untilEnded(running, control, run.language);
  } catch (err) {
    outcome = { status: 'died', exitCode: null, cwd: null, message: `The run failed inside the engine: ${errorMessage(err)}` };
  } finally {
    control.settle();
    timer.clear();
    input.close();
    actionsOver?.abort();
    options.live?.delete(liveKey);
    request.signal?.removeEventListener('abort', onAbort);
    slot.active.delete(control);
  }
  return { outcome, stopReason: control.reason, waited, broker: input.broker };
}

/** The session's run of the code, with the screen actions it may ask for when the request offers them. */
function startRun(run: RunToWatch, input: RunInputSetup, timer: RunClock, actionsOver: AbortSignal | undefined): Promise<SessionOutcome> {
  const { request } = run;
  const computer = actionsOver && request.onComputer;
  return run.session.run({
    runId: run.runId,
    code: request.code,
    settings: request.settings,
    executionCount: run.executionCount,
    output: run.output,
    input: input.broker,
    // The time the person takes to approve an action is not the code's: the clock stops, as for input.
    ...(computer
      ? {
          computer: (action, signal) => {
            timer.pause();
            return computer(action, AbortSignal.any([signal, actionsOver])).finally(() => timer.resume());
          },
        }
      : {}),
  });
}

/** The run's outcome, or a death when the control gave up stopping it. */
function untilEnded(running: Promise<SessionOutcome>, control: RunControl, language: LanguageDefinition): Promise<SessionOutcome> {
  const abandoned = control.abandoned.then((): SessionOutcome => ({
    status: 'died',
    exitCode: null,
    cwd: null,
    message: `The ${language.name} session could not be stopped and was abandoned.`,
  }));
  return Promise.race([running, abandoned]);
}
