import { OscFilter } from '../output/osc-filter';
import type { StderrTerminal } from '../process/stderr-terminal';
import { END_BARRIER_KEY } from '../session/run-end';
import type { SessionRun } from '../session/session-types';

// The stderr side of a shell session, apart from shell-session.ts: the cell's stderr comes on a
// terminal of its own (process/stderr-terminal.ts), read beside the main one in either order, so
// this side keeps what came between runs or before a run's start mark, holds back bash's "exit",
// and carries main's run-end barrier. The session tells it where the shell is; it never changes that.

/** Output printed while no run is active (background jobs) is kept for the next run, up to this much. */
export const IDLE_TEXT_MAX = 256 * 1024;

/** What of a shell run the stderr side reads and writes. */
export interface StderrRun {
  run: SessionRun;
  /**
   * stderr read before the start mark: the two terminals are read in whichever order the event
   * loop gets to them, so the cell's first stderr can come before main has seen it start.
   */
  earlyErr: string;
}

/** Where the shell is, as far as its stderr goes: between runs, a run's line typed or running. */
export type StderrPhase = { name: 'booting' | 'idle' | 'dead' } | { name: 'sent' | 'running'; active: StderrRun };

export class ShellStderr {
  private readonly filter = new OscFilter();
  /** stderr written between runs (background jobs): the next run's, as stdout's idle text is. */
  private idleText = '';
  /** A trailing "exit" line bash printed to stderr, held until it is clear the shell is not exiting. */
  private heldExit = '';

  constructor(
    private readonly terminal: StderrTerminal | null,
    /** Read for every piece: a barrier passing can end the run between two pieces of one read. */
    private readonly phase: () => StderrPhase,
    /** A run-end barrier token came back (run-end.ts ignores any but main's own). */
    private readonly synced: (token: string) => void,
  ) {}

  /** Text from the stderr terminal: the running cell's stderr, and main's run-end barrier. */
  onData(text: string): void {
    for (const piece of this.filter.push(text)) {
      const phase = this.phase();
      if (piece.kind === 'property') {
        // Only main's own token counts (run-end.ts ignores any other value).
        if (piece.key === END_BARRIER_KEY) this.synced(piece.value);
        continue;
      }
      if (phase.name === 'idle' && piece.kind === 'text' && this.idleText.length < IDLE_TEXT_MAX)
        this.idleText += piece.text.slice(0, IDLE_TEXT_MAX - this.idleText.length);
      if (phase.name === 'sent' && piece.kind === 'text' && phase.active.earlyErr.length < IDLE_TEXT_MAX)
        phase.active.earlyErr += piece.text.slice(0, IDLE_TEXT_MAX - phase.active.earlyErr.length);
      if (phase.name === 'running' && piece.kind === 'text') this.text(phase.active, piece.text);
    }
  }

  /** The run-end barrier through the stderr terminal (at once where there is none, or it cannot be written). */
  barrier(token: string): void {
    const passed = (): void => this.synced(token);
    if (!this.terminal) return queueMicrotask(passed);
    this.terminal.writeOutput(`\x1b]633;P;${END_BARRIER_KEY}=${token}\x07`).catch(passed);
  }

  /** A new run takes the stderr written since the last one. */
  takeIdle(run: SessionRun): void {
    if (this.idleText.trim()) {
      run.output.stream('stderr');
      run.output.terminal(this.idleText);
      run.output.stream('stdout');
    }
    this.idleText = '';
  }

  /** The run's start mark: what its stderr said before it goes out first. */
  flushEarly(active: StderrRun): void {
    const early = active.earlyErr;
    active.earlyErr = '';
    if (early) this.text(active, early);
  }

  /** The run ended; a held "exit" was the program's own unless the shell itself exited. */
  runEnded(active: StderrRun, shellExited: boolean): void {
    this.flushEarly(active);
    if (!shellExited && this.heldExit) {
      active.run.output.stream('stderr');
      active.run.output.terminal(this.heldExit);
      active.run.output.stream('stdout');
    }
    this.heldExit = '';
  }

  private text(active: StderrRun, text: string): void {
    // bash says "exit" on stderr when `exit` ends it: not the program's output. Held back until more
    // comes or the run ends normally; dropped if the shell exits.
    let out = this.heldExit + text;
    this.heldExit = '';
    const exit = /(^|\n)exit\r?\n$/.exec(out);
    if (exit) {
      this.heldExit = out.slice(exit.index + exit[1]!.length);
      out = out.slice(0, exit.index + exit[1]!.length);
    }
    if (!out) return;
    active.run.output.stream('stderr');
    active.run.output.terminal(out);
    active.run.output.stream('stdout');
  }
}

/**
 * The command, started with the stderr terminal open as fd 9: a shell opens it before it becomes the
 * command (`exec` keeps the pid, so limits and the sandbox's process lookup see the same process),
 * and the fd is inherited through the sandbox, whose /dev would not have the terminal by its name.
 */
export function withStderrFd(command: { file: string; args: string[] }, ttyPath: string): { file: string; args: string[] } {
  return { file: '/bin/sh', args: ['-c', 'if [ -w "$0" ]; then exec 9>"$0"; fi; exec "$@"', ttyPath, command.file, ...command.args] };
}
