import type { ExecSettings, RunLimits } from '@contract';
import type { LanguageDefinition, Runtime } from '../languages/language';
import type { Probing } from '../languages/probing';
import type { LimitController } from '../process/limits';
import type { RunOutput } from '../output/run-output';
import type { RunComputer, RunStatus } from '../engine/types';
import type { RunInput } from '../input/input-types';
import type { SessionTerminal } from '../input/terminal-watch';

// What every kind of session (shell, runner, one-shot) offers the service. The service owns
// timeouts, queueing and the escalation from Ctrl-C to killing; a session only knows how to run one
// piece of code at a time and how to stop it at each level of force.

export interface SessionRun {
  runId: string;
  code: string;
  settings: ExecSettings;
  executionCount: number;
  output: RunOutput;
  /** Where the program's questions go (a runner's input requests): the person, or end-of-input. */
  input: RunInput;
  /** Where the code's screen actions go (`computer.*` in Python); absent: refused, computer use is off. */
  computer?: RunComputer;
}

export interface SessionOutcome {
  status: RunStatus;
  exitCode: number | null;
  cwd: string | null;
  /** A sentence for the model and the user about how the run ended, when the output alone does not say. */
  message: string | null;
  /** Exported variables the run set (a value) or unset (null); shells report them. */
  env?: Record<string, string | null>;
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
   * The least time between the steps of stopping a run, when it must be longer than the engine's:
   * a remote kernel's interrupt is an HTTP request to another machine, and its last step shuts the
   * kernel down with all its state, so a slow answer must not be taken for code that ignores Ctrl-C.
   */
  readonly stopGraceMs?: number;
  /**
   * Second level: kill everything the session started, keeping the session itself. Stops as soon
   * as runEnded() says the run is over, so processes of the next run are never hit.
   */
  killChildren(runEnded?: () => boolean): Promise<void>;
  /** Last level: kill the session and all its processes; the pending run resolves as died. */
  kill(): Promise<void>;
  /** Flow control: stop reading output while the run's spill file catches up (true), go on (false). */
  setPaused(paused: boolean): void;
  /**
   * The session's terminal while it has one here (not remote kernels): watched for programs that
   * wait to read it, and typed into by the person (docs/exec.md#input).
   */
  terminal?(): SessionTerminal | null;
  dispose(): Promise<void>;
}

/** What a route (engine/session-router.ts) needs to start a session of any kind (session/start-session.ts). */
export interface StartSessionOptions {
  language: LanguageDefinition;
  runtime: Runtime;
  workspace: string;
  env: Record<string, string>;
  tmpRoot: string;
  resourcesDir: string;
  limits: LimitController;
  settings: ExecSettings;
}

// Where a conversation's session runs (engine/session-router.ts): a remote kernel, the sandbox or a
// local process. Here rather than in the router so that remote/ can offer a route without importing it.
export interface SessionRoute {
  /** Sessions are reused only while the route's key stays the same. */
  key: string;
  /** How a sentence names the route: 'locally', 'in the sandbox', 'on the remote kernel at …'. */
  label: string;
  /** Why nothing may run (the sandbox is on but cannot work here); the run is refused with it. */
  refusal: string | null;
  /** A runtime the route provides itself (a remote kernel needs none installed locally). */
  runtime: Runtime | null;
  /** The limits and protections that really hold on this route. */
  limits(base: RunLimits): RunLimits;
  start(options: StartSessionOptions): Promise<Session>;
  /**
   * Where programs are run to ask them things before a session starts (languages/probing.ts); a
   * sandboxed route runs anything its code could have written inside the sandbox. Default: directly.
   */
  probing?(context: ProbingContext): Probing;
}

export interface ProbingContext {
  workspace: string;
  /**
   * The environment programs are asked with inside the sandbox (the code's, without the app's keys).
   * A function is called only when it is needed (a program is asked in the sandbox, or extra paths
   * name `~`): building it walks the whole process environment, which a warm run never needs.
   */
  env: Record<string, string> | (() => Record<string, string>);
  /** Where one-off sandboxes keep their private folders. */
  tmpRoot: string;
}
