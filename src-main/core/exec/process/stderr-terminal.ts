import { readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { ReadStream } from 'node:tty';
import { nodePty, writeIntoTerminal } from './pty-process';

// A second terminal for a shell session's stderr (docs/exec.md#stderr). A shell cell's stdout and
// stderr are both terminals, as in the user's own terminal (colours, progress bars and `isatty(2)`
// behave), but two different ones, so main knows which stream each piece of text came from. No
// process runs on it: main holds both ends, and the shell is given the other end as an open fd.

/** The parts of node-pty's `open()` result used here (the function is not in node-pty's typings). */
interface OpenedTerminal {
  _master: ReadStream;
  _slave: ReadStream;
  _pty: string;
  /** The master side's file descriptor. */
  _fd: number;
}

export class StderrTerminal {
  private readonly decoder = new StringDecoder('utf8');
  private listener: ((text: string) => void) | null = null;
  private closed = false;

  private constructor(private readonly term: OpenedTerminal) {
    term._master.on('data', (data: Buffer | string) => {
      const text = typeof data === 'string' ? data : this.decoder.write(data);
      if (text && !this.closed) this.listener?.(text);
    });
    // A read error (EIO once every writer is gone) ends nothing here: the session decides.
    term._master.on('error', () => undefined);
    term._slave.on('error', () => undefined);
  }

  /** A new terminal pair, or null where node-pty cannot open one (Windows): stderr then stays on the main terminal. */
  static open(cols = 120, rows = 30): StderrTerminal | null {
    if (process.platform === 'win32') return null;
    try {
      const open = (nodePty() as unknown as { open?: (options: object) => OpenedTerminal }).open;
      if (typeof open !== 'function') return null;
      const term = open({ cols, rows, encoding: null });
      return typeof term._pty === 'string' && term._pty ? new StderrTerminal(term) : null;
    } catch {
      return null;
    }
  }

  /** The terminal device programs write to (`/dev/pts/7`). */
  get path(): string {
    return this.term._pty;
  }

  onData(listener: (text: string) => void): void {
    this.listener = listener;
  }

  /**
   * Delivers, now, what the terminal holds that the event loop has not read yet: when the shell
   * exits, its last stderr may still be waiting there while its exit is already being reported.
   */
  drain(): void {
    const fd = this.term._fd;
    if (this.closed || typeof fd !== 'number') return;
    const buffer = Buffer.alloc(65536);
    for (let i = 0; i < 64; i++) {
      let n: number;
      try {
        n = readSync(fd, buffer, 0, buffer.length, null);
      } catch {
        break; // EAGAIN: nothing more (the fd is non-blocking), or EIO: nobody holds the other end
      }
      if (n <= 0) break;
      const text = this.decoder.write(buffer.subarray(0, n));
      if (text) this.listener?.(text);
    }
  }

  /** Writes into the terminal's output, behind everything already written there (a run-end barrier). */
  async writeOutput(text: string): Promise<void> {
    if (this.closed) throw new Error('the terminal is closed');
    await writeIntoTerminal(this.path, text);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.term._master.destroy();
    this.term._slave.destroy();
  }
}
