import type { ExecSettings } from '@contract';
import type { RunOutput } from './run-output';
import type { RunStatus } from './types';

// What every kind of session (shell, runner, one-shot) offers the service. The service owns
// timeouts, queueing and the escalation from Ctrl-C to killing; a session only knows how to run one
// piece of code at a time and how to stop it at each level of force.

export interface SessionRun {
  runId: string;
  code: string;
  settings: ExecSettings;
  executionCount: number;
  output: RunOutput;
}

export interface SessionOutcome {
  status: RunStatus;
  exitCode: number | null;
  cwd: string | null;
  /** A sentence for the model and the user about how the run ended, when the output alone does not say. */
  message: string | null;
}

export interface Session {
  /** false once the process behind the session has exited; a dead session is replaced on next use. */
  readonly alive: boolean;
  /** Set when the session died on its own while idle, so the next run can say state was lost. */
  readonly diedWhileIdle: string | null;
  run(run: SessionRun): Promise<SessionOutcome>;
  /** Ctrl-C semantics: SIGINT to what runs in the foreground. */
  interrupt(): void;
  /**
   * Second level: kill everything the session started, keeping the session itself. Stops as soon
   * as runEnded() says the run is over, so processes of the next run are never hit.
   */
  killChildren(runEnded?: () => boolean): Promise<void>;
  /** Last level: kill the session and all its processes; the pending run resolves as died. */
  kill(): Promise<void>;
  /** Flow control: stop reading output while the run's spill file catches up (true), go on (false). */
  setPaused(paused: boolean): void;
  dispose(): Promise<void>;
}
