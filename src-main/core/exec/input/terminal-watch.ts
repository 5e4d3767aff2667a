import { findTerminalRead, terminalModes, terminalReadSupported, type TerminalRead } from './terminal-reader';
import type { InputQuestion, RunInput } from './input-types';

// Watches one run for a program that waits at the terminal (terminal-reader.ts). Only when the
// run's output has been quiet for a moment: a program printing is not waiting, and a run that
// finishes quickly costs nothing. The question goes to the run's input (the person, or
// end-of-input); the answer is typed into the terminal as a person would: the line and Enter, or
// Ctrl-D, which a terminal in line mode turns into end-of-input.

/** What a session lends the watch: its pty's first process, the terminal's path, and a keyboard. */
export interface SessionTerminal {
  pid: number;
  /** The terminal device (`/dev/pts/3`), for reading its echo and line modes; null when unknown. */
  ttyPath: string | null;
  write(data: string): void;
  /**
   * The session's own process is back in its wait between cells (a shell at its prompt, which reads
   * the terminal too): the cell is over and its run's end is on its way, so nobody is asking.
   */
  atRest?(): boolean;
}

export interface TerminalWatchOptions {
  /** Asked at each look: a one-shot session has a terminal only while its process runs. */
  terminal(): SessionTerminal | null;
  input: RunInput;
  /** Bytes of output so far: a change means the program is busy, not waiting. */
  outputBytes(): number;
  /** The run's current last line of text, which is the prompt when a program waits. */
  trailingLine(): string;
  /** Nobody can type and the program keeps waiting even after end-of-input: the run must stop. */
  onStuck(reader: TerminalRead, question: InputQuestion): void;
  /** How long output must be quiet before the terminal is looked at (default 250 ms). */
  quietMs?: number;
}

const TICK_MS = 125;
const DEFAULT_QUIET_MS = 250;
/**
 * End-of-input given this many times to one program that still waits: it is stuck (it asks again
 * and again). A program reading keys (raw mode) gets one try: a line editor (Python's REPL, a shell)
 * takes Ctrl-D as end-of-input, a full-screen program (vi, less, top) just reads a key.
 */
const EOF_LIMIT = { line: 3, keys: 1 } as const;

export class TerminalWatch {
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  private stopped = false;
  private lastBytes = -1;
  private quietSince = Date.now();
  /** End-of-input given with nobody there, per process, to notice a program that keeps waiting. */
  private readonly eofs = new Map<number, number>();

  constructor(private readonly options: TerminalWatchOptions) {}

  static supported(): boolean {
    return terminalReadSupported();
  }

  start(): void {
    if (this.timer || this.stopped) return;
    this.lastBytes = this.options.outputBytes();
    this.quietSince = Date.now();
    this.timer = setInterval(() => void this.tick(), TICK_MS);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private quiet(): boolean {
    const bytes = this.options.outputBytes();
    if (bytes !== this.lastBytes) {
      this.lastBytes = bytes;
      this.quietSince = Date.now();
      return false;
    }
    return Date.now() - this.quietSince >= (this.options.quietMs ?? DEFAULT_QUIET_MS);
  }

  private async tick(): Promise<void> {
    if (this.busy || this.stopped || !this.quiet()) return;
    this.busy = true;
    try {
      const terminal = this.options.terminal();
      const reader = terminal ? await findTerminalRead(terminal.pid) : null;
      // A loaded machine can take longer to see a shell's run end than the quiet period: Ctrl-D given
      // to the shell's own prompt then reached the next run ("zsh: use 'exit' to exit.").
      if (!terminal || !reader || this.stopped || terminal.atRest?.()) return;
      await this.askAbout(terminal, reader);
    } catch {
      // Looking failed (the process went away meanwhile): look again at the next tick.
    } finally {
      this.busy = false;
      this.lastBytes = this.options.outputBytes();
      this.quietSince = Date.now();
    }
  }

  private async askAbout(terminal: SessionTerminal, reader: TerminalRead): Promise<void> {
    const { input } = this.options;
    const modes = terminal.ttyPath ? await terminalModes(terminal.ttyPath) : null;
    const canonical = modes?.canonical ?? true;
    const question: InputQuestion = {
      // A full-screen program's last line is a piece of its screen, not a question.
      prompt: canonical ? this.options.trailingLine() : '',
      // Echo off in line mode is how programs read a secret (sudo, ssh, getpass, `read -s`).
      password: canonical && modes?.echo === false,
      mode: canonical ? 'line' : 'keys',
      from: 'terminal',
      command: reader.command || null,
    };
    const bytes = this.options.outputBytes();
    if (!input.personPresent && (this.eofs.get(reader.pid) ?? 0) >= EOF_LIMIT[question.mode]) {
      this.stop();
      this.options.onStuck(reader, question);
      return;
    }
    // The person may answer by typing into the terminal itself: the question is withdrawn as soon as
    // the program stops waiting or prints something.
    const withdrawn = new AbortController();
    const follow = setInterval(() => {
      void (async () => {
        if (withdrawn.signal.aborted) return;
        if (this.options.outputBytes() !== bytes || this.stopped) return withdrawn.abort();
        const still = await findTerminalRead(terminal.pid).catch(() => null);
        if (!still || still.pid !== reader.pid) withdrawn.abort();
      })();
    }, 500);
    try {
      const answer = await input.ask(question, withdrawn.signal);
      if (this.stopped || withdrawn.signal.aborted) return;
      if (answer.kind === 'line') terminal.write(`${answer.text}\r`);
      else {
        // Ctrl-D: end-of-input for a terminal in line mode (a program in raw mode just reads the key).
        terminal.write('\x04');
        if (!input.personPresent) this.eofs.set(reader.pid, (this.eofs.get(reader.pid) ?? 0) + 1);
      }
    } finally {
      clearInterval(follow);
    }
  }
}
