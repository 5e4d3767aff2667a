import { formatSeconds } from './format';

// Sentences the model and the user read about how a run ended. Kept together so they stay
// consistent, and say what happened and what follows from it.

export function diedMessage(label: string, exit: { exitCode: number | null; signal: number | null }): string {
  const how = exit.signal
    ? ` (killed by signal ${signalName(exit.signal)})`
    : exit.exitCode !== null
      ? ` (exit code ${exit.exitCode})`
      : '';
  return `The ${label} session died${how}: state was lost. A new session starts on the next run.`;
}

export function exitedMessage(label: string, exitCode: number | null): string {
  return `The ${label} session exited${exitCode !== null ? ` with code ${exitCode}` : ''}: state was lost. A new session starts on the next run.`;
}

export function diedWhileIdleMessage(label: string, why: string): string {
  return `Note: the previous ${label} session had ended (${why}); this run started a new one, so earlier state is gone.`;
}

/** The note for the next run after an idle sweep ended the session (docs/exec.md#idle-sessions). */
export function idleEndedMessage(label: string, idleMs: number): string {
  return diedWhileIdleMessage(label, `it was unused for ${formatSeconds(idleMs)}, so the app ended it to free memory`);
}

export function runtimeChangedMessage(label: string, command: string): string {
  return `Note: the ${label} interpreter changed to ${command}; this run started a new session, so earlier state is gone.`;
}

export function timeoutMessage(timeoutMs: number, sessionSurvived: boolean, label: string): string {
  return sessionSurvived
    ? `Timed out after ${formatSeconds(timeoutMs)} and was interrupted; the ${label} session is still running and keeps its state.`
    : `Timed out after ${formatSeconds(timeoutMs)}; the ${label} session did not stop and was killed: state was lost. A new session starts on the next run.`;
}

/**
 * `endsWithStop`: what ends when the user stops (`oi -m`'s run, whose sessions end as it exits), so the
 * note does not promise a state that is about to go.
 */
export function interruptedMessage(sessionSurvived: boolean, label: string, endsWithStop?: string): string {
  if (sessionSurvived && endsWithStop) return `Interrupted by the user; ${endsWithStop} ends now, and the ${label} session with it.`;
  return sessionSurvived
    ? `Interrupted by the user; the ${label} session is still running and keeps its state.`
    : `Interrupted by the user; the ${label} session did not stop and was killed: state was lost. A new session starts on the next run.`;
}

export function noInputMessage(program: string | null, keys: boolean, sessionSurvived: boolean, label: string): string {
  const who = program ? `The program ${program}` : 'The program';
  const what = keys ? 'kept waiting for keys at the terminal' : 'kept waiting for input at the terminal after end-of-input';
  const kept = sessionSurvived
    ? `; the ${label} session keeps its state`
    : `; the ${label} session did not stop and was killed: state was lost`;
  return `${who} ${what}; no one can type here, so the run was stopped${kept}. Pass values as arguments or files, or use the program's non-interactive options (such as --yes).`;
}

export function unavailableMessage(label: string, available: string[]): string {
  const list = available.length > 0 ? available.join(', ') : 'no supported language runtimes';
  return `${label} is not installed on this machine; available here: ${list}.`;
}

const SIGNALS: Record<number, string> = {
  1: 'SIGHUP',
  2: 'SIGINT',
  3: 'SIGQUIT',
  4: 'SIGILL',
  6: 'SIGABRT',
  7: 'SIGBUS',
  8: 'SIGFPE',
  9: 'SIGKILL',
  11: 'SIGSEGV',
  13: 'SIGPIPE',
  15: 'SIGTERM',
  24: 'SIGXCPU',
  25: 'SIGXFSZ',
};

export function signalName(signal: number): string {
  return SIGNALS[signal] ?? `signal ${signal}`;
}
