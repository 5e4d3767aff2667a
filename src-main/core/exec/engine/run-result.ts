import type { CellOutput, RunLimits } from '@contract';
import { interruptedMessage, noInputMessage, timeoutMessage } from '../output/messages';
import type { FinishedOutput } from '../output/run-output';
import type { SessionOutcome } from '../session/session-types';
import type { ShellName } from '../shell/shell-choice';
import type { StopReason } from './run-control';
import type { RunResult, RunStatus } from './types';

// What a run hands back: the outputs for the UI and notebooks, and the one text the model reads —
// notes first (the session was replaced, the shell was swapped), then the run's own head and tail,
// then how it ended when the output alone does not say.

/** How the run ended, once the engine's own stop (timeout, interrupt) is taken into account. */
export function finalStatus(
  outcome: SessionOutcome,
  stopped: StopReason | null,
  context: {
    timeoutMs: number;
    survived: boolean;
    language: string;
    waited?: { command: string | null; keys: boolean } | null;
    /** What ends when the user stops (ExecServiceOptions.endsWithStop). */
    endsWithStop?: string;
  },
): { status: RunStatus; message: string | null } {
  // A program stopped for want of input may leave its shell's line to finish cleanly; it still failed.
  if (stopped === 'no-input') {
    const waited = context.waited ?? { command: null, keys: false };
    return { status: 'failed', message: noInputMessage(waited.command, waited.keys, context.survived, context.language) };
  }
  if (!stopped || outcome.status === 'done') return { status: outcome.status, message: outcome.message };
  const message =
    stopped === 'timeout'
      ? timeoutMessage(context.timeoutMs, context.survived, context.language)
      : interruptedMessage(context.survived, context.language, context.endsWithStop);
  return { status: stopped, message };
}

export interface FinishedRun {
  status: RunStatus;
  exitCode: number | null;
  cwd: string | null;
  envChanges?: Record<string, string | null>;
  /** How the run ended, for the model and the user (also added to the outputs as stderr, marked the app's note). */
  message: string | null;
  /** Notes to put before the run's text. */
  note: string;
  /** The note that the session's earlier state is gone, also shown first among the outputs. */
  stateGone?: string | null;
  /** What the model must know about the input the program asked for (input/input-broker.ts). */
  inputNote?: string | null;
  output: FinishedOutput;
  startedAt: number;
  executionCount: number;
  limits: RunLimits;
  /** The shell a shell cell ran in; null for other languages and remote kernels. */
  shell: ShellName | null;
}

export function assembleResult(run: FinishedRun): RunResult {
  const outputs: CellOutput[] = [
    ...(run.stateGone ? [{ output_type: 'stream', name: 'stderr', text: `${run.stateGone}\n`, appNote: true } as const] : []),
    ...run.output.outputs,
  ];
  const lines: string[] = [];
  if (run.note) lines.push(run.note);
  const body = run.output.modelText.replace(/\n+$/, '');
  if (body) lines.push(body);
  else if (run.output.outputs.length === 0 && !run.message) lines.push('(no output)');
  if (run.status === 'failed' && run.exitCode !== null && !run.message) lines.push(`[exit code ${run.exitCode}]`);
  if (run.inputNote) lines.push(`[${run.inputNote}]`);
  if (run.message) {
    lines.push(`[${run.message}]`);
    outputs.push({ output_type: 'stream', name: 'stderr', text: `${run.message}\n`, appNote: true });
  }
  return {
    status: run.status,
    exitCode: run.exitCode,
    outputs,
    forModel: lines.join('\n'),
    durationMs: Date.now() - run.startedAt,
    executionCount: run.executionCount,
    limits: run.limits,
    cwd: run.cwd,
    ...(run.envChanges ? { envChanges: run.envChanges } : {}),
    ...(run.shell ? { shell: run.shell } : {}),
  };
}

/** A run that ended before any code ran (or the engine failed): the message is all there is. */
export function simpleResult(status: RunStatus, message: string, startedAt: number, limits: RunLimits, executionCount: number): RunResult {
  return {
    status,
    exitCode: null,
    outputs: [{ output_type: 'stream', name: 'stderr', text: `${message}\n`, appNote: true }],
    forModel: message,
    durationMs: Date.now() - startedAt,
    executionCount,
    limits,
    cwd: null,
  };
}
