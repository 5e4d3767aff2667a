import type { CellOutput, CellStatus, DisplayUpdate, ExecSettings, RunLimits, SandboxSettings } from '@contract';
import type { ShellName } from '../shell/shell-choice';
import type { InputAsker } from '../input/input-types';

// The execution engine's port: what the agent loop (and the CLI, and notebook re-runs) need from it.

export type RunStatus = Extract<CellStatus, 'done' | 'failed' | 'timeout' | 'interrupted' | 'died' | 'unavailable'>;

/**
 * The sandbox a run gets: the settings, and for a conversation in plan mode (docs/agent.md#plan-mode)
 * the workspace bound read-only, so a cell can read it and change nothing.
 */
export type RunSandbox = SandboxSettings & { workspaceReadOnly?: boolean };

/** What main answers a screen action the code asked for (docs/computer-use.md#in-code). */
export interface ComputerAnswer {
  ok: boolean;
  /** What was done, or why not, in words. */
  text: string;
  /** The screenshot after the action, as the model would get it. */
  shot?: { png: string; width: number; height: number };
  /** find_window's answer: the windows found (id, title, class, instance, size). */
  windows?: Array<{ id: number; title: string; class: string; instance: string; width: number; height: number }>;
}

/** Carries out (or refuses) one action the running code asked for; `signal` ends with the run. */
export type RunComputer = (action: Record<string, unknown>, signal: AbortSignal) => Promise<ComputerAnswer>;

export interface RunRequest {
  conversationId: string;
  /** Absolute path of the conversation's workspace; sessions start there. */
  workspace: string;
  /** A language name or alias ('py', 'bash', 'js'…). */
  language: string;
  code: string;
  settings: ExecSettings;
  /** The conversation's sandbox (see sandbox/); absent or disabled: runs unsandboxed. */
  sandbox?: RunSandbox;
  /** Terminal text for the cell's terminal view, already batched (~16 ms / 64 KB) and UTF-8 safe. */
  onTerminal?: (data: string) => void;
  /** Structured outputs (display_data, execute_result, error) as they arrive. */
  onOutput?: (output: CellOutput) => void;
  /**
   * An update of the displays with an id (docs/exec.md#display-updates): already applied to this run's
   * own outputs; the caller applies it to earlier cells' outputs, as Jupyter front ends do.
   */
  onDisplayUpdate?: (update: DisplayUpdate) => void;
  /** Aborting interrupts the run (Ctrl-C semantics), then kills it after a grace period. */
  signal?: AbortSignal;
  /**
   * Asks the person when the program waits for input (docs/exec.md#input). Absent: nobody can
   * answer, and every question gets end-of-input at once (the model is told).
   */
  onInput?: InputAsker;
  /**
   * Acts on the screen for the code (`computer.*` in Python cells, docs/computer-use.md#in-code): the
   * agent's computer use, with its switch, approvals and banner. Absent: every such call is refused.
   */
  onComputer?: RunComputer;
  /** Names the run's spill file (`.oi/outputs/<runId>.log`), e.g. the cell's id; generated when absent. */
  runId?: string;
  /**
   * The run's execution count, when the caller numbers its runs (a notebook re-run numbers its cells
   * 1..n across languages, as one Jupyter kernel does); the session's own count goes on from it.
   * Absent: the session's next count.
   */
  executionCount?: number;
  /**
   * ExecService.prepare only: told once the session's process has been started (not yet ready), so a
   * caller can leave the main thread to the start until then (`oi mcp` loads the MCP SDK after it).
   */
  onSpawn?: () => void;
}

export interface RunResult {
  status: RunStatus;
  exitCode: number | null;
  /** Everything for the UI and notebooks: terminal text as a stdout stream (capped), rich outputs, errors, in order. */
  outputs: CellOutput[];
  /** Trimmed head + tail text of the run for the model, including a line saying what was elided. */
  forModel: string;
  durationMs: number;
  executionCount: number;
  limits: RunLimits;
  /** Working directory after the run, where the language reports it. */
  cwd: string | null;
  /** Exported variables the run set (a value) or unset (null), where the language reports them (shells). */
  envChanges?: Record<string, string | null>;
  /**
   * The cell ran twice (an automatic install between): the first `outputs` outputs are the failed
   * attempt and the install, shown collapsed under `summary`; the rest are the re-run's.
   */
  firstAttempt?: { outputs: number; summary: string };
  /** The output passed the UI's cap: the whole of it is in this workspace file (`.oi/outputs/<run>.log`), `bytes` long and `lines` lines. */
  fullOutput?: { path: string; bytes: number; lines: number };
  /** The shell that ran a shell cell here (a `shell` cell may run in zsh); absent for other languages and remote kernels. */
  shell?: ShellName;
}

export interface LanguageInfo {
  name: string;
  aliases: string[];
  available: boolean;
  version: string | null;
  persistent: boolean;
}

export interface PythonInfo {
  command: string;
  packages: string[];
}

export interface LanguagesScope {
  workspace: string;
  settings: ExecSettings;
  sandbox?: SandboxSettings;
}

export interface ExecService {
  run(request: RunRequest): Promise<RunResult>;
  /**
   * Starts the session a run of this request would use, running nothing, so that a caller that holds
   * something while a run goes on (sub-agents' cells take turns on a workspace) does not hold it
   * through a session's start. Never throws; a session that cannot start is left for the run to report.
   * Optional: an engine without it starts the session at the run, as always.
   */
  prepare?(request: RunRequest): Promise<void>;
  /**
   * Interrupt whatever runs in this conversation (all languages, or one). A language name reaches
   * the session(s) it resolves to: `shell` the shell its cells last ran in (bash or zsh; both before
   * any ran), `zsh` bash when zsh was missing.
   */
  interrupt(conversationId: string, language?: string): void;
  /**
   * Types into the terminal of a run going on (keys from the cell's live terminal: a full-screen
   * prompt, an answer typed by hand). Returns false when no such run is going on.
   */
  typeInto(conversationId: string, runId: string, data: string): boolean;
  /** Ends the session(s) the language name resolves to, as interrupt() finds them; the next run starts anew. */
  restart(conversationId: string, language: string): Promise<void>;
  /**
   * The languages and their runtimes. With a scope, found as a run there would find them (its PATH,
   * and for a sandboxed conversation nothing its code could have written run outside the sandbox).
   */
  languages(scope?: LanguagesScope): Promise<LanguageInfo[]>;
  /** The interpreter Python cells in this scope run with, and the import names installed for it; null without Python. */
  python(scope: LanguagesScope): Promise<PythonInfo | null>;
  closeConversation(conversationId: string): Promise<void>;
  /**
   * Ends the sessions (and their processes) of conversations with no run for `idleMs` before `now`
   * and none going on or waiting, unless `keep` says the conversation is in use (a turn, a question
   * to the person). The next run in such a conversation starts a new session and says the earlier
   * state is gone. Returns the conversations whose sessions were ended (docs/exec.md#idle-sessions).
   */
  endIdle(idleMs: number, keep?: (conversationId: string) => boolean, now?: number): Promise<string[]>;
  dispose(): Promise<void>;
}
