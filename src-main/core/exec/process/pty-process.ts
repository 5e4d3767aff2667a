import { closeSync, constants, openSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { StringDecoder } from 'node:string_decoder';
import { drainFd } from './drain-fd';
import type * as NodePty from 'node-pty';

// A process under a pseudo-terminal, so programs see a terminal (colours, progress bars, line
// buffering). Output arrives as decoded text: bytes are decoded here with a streaming decoder so a
// character split across reads is never mangled, and invalid UTF-8 becomes U+FFFD instead of
// breaking anything downstream.

// node-pty (a native addon and its CommonJS wrapper) is required on the first spawn, not at import:
// the CLI's --help, browser mode's URL and a turn's first model request need no terminal.
const requireHere = createRequire(import.meta.url);
let ptyModule: typeof NodePty | null = null;
export const nodePty = (): typeof NodePty => (ptyModule ??= requireHere('node-pty') as typeof NodePty);

export interface PtyProcessOptions {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  cols?: number;
  rows?: number;
}

export interface PtyExit {
  exitCode: number | null;
  signal: number | null;
}

export class PtyProcess {
  private readonly pty: NodePty.IPty;
  private readonly decoder = new StringDecoder('utf8');
  private readonly pauseReasons = new Set<string>();
  private dataListener: ((text: string) => void) | null = null;
  private exitListeners: Array<(exit: PtyExit) => void> = [];
  private exitInfo: PtyExit | null = null;
  /** Output is being handed to the listener: a drain now would put later bytes before the rest of it. */
  private dispatching = false;
  private drainBuffer: Buffer | null = null;
  readonly pid: number;

  constructor(options: PtyProcessOptions) {
    this.pty = nodePty().spawn(options.file, options.args, {
      name: 'xterm-256color',
      cols: options.cols ?? 120,
      rows: options.rows ?? 30,
      cwd: options.cwd,
      env: options.env,
      // Buffers, not strings: decoding is ours so we control how split and invalid bytes behave.
      encoding: null,
    });
    this.pid = this.pty.pid;
    this.pty.onData((data: string | Buffer) => this.dispatch(typeof data === 'string' ? data : this.decoder.write(data)));
    this.pty.onExit(({ exitCode, signal }) => {
      const rest = this.decoder.end();
      if (rest) this.dataListener?.(rest);
      this.exitInfo = { exitCode: signal ? null : exitCode, signal: signal || null };
      const listeners = this.exitListeners;
      this.exitListeners = [];
      for (const listener of listeners) listener(this.exitInfo);
    });
  }

  /** The terminal device the process runs on (`/dev/pts/3`); null where node-pty does not say (Windows). */
  get ttyPath(): string | null {
    const name = (this.pty as { ptsName?: unknown }).ptsName;
    return typeof name === 'string' && name ? name : null;
  }

  get exited(): PtyExit | null {
    return this.exitInfo;
  }

  onData(listener: (text: string) => void): void {
    this.dataListener = listener;
  }

  onExit(listener: (exit: PtyExit) => void): void {
    if (this.exitInfo) listener(this.exitInfo);
    else this.exitListeners.push(listener);
  }

  write(data: string): void {
    if (this.exitInfo) return;
    try {
      this.pty.write(data);
    } catch {
      // The process is going away; its exit is reported through onExit.
    }
  }

  /**
   * Writes into the terminal's output, as a program on it would: the text reaches onData after
   * everything written to the terminal before it (session/run-end.ts uses this as a barrier).
   */
  async writeOutput(text: string): Promise<void> {
    const path = this.ttyPath;
    if (!path || this.exitInfo) throw new Error('the terminal is gone');
    await writeIntoTerminal(path, text);
  }

  /**
   * Reads the terminal here and now, past the event loop, until nothing is left, and hands what it
   * read to the listener before returning: a stand-in for `writeOutput`'s round trip when main only
   * needs everything written to the terminal so far (session/run-end.ts). A program's write to the
   * terminal is queued at this side before the write returns, and a read that finds nothing ready
   * first pushes through what is queued (Linux's n_tty), so what was written before this call is
   * read by it. Through node-pty's descriptor for the terminal's main side, which node-pty makes
   * non-blocking (Linux only: another kernel's terminal is not known to behave so); false, and
   * nothing read, where there is none, while output is paused (flow control), while node-pty's
   * stream holds bytes it has not handed on or the listener is being handed some (what is read here
   * would overtake them), and after a read that did not end in EAGAIN (the terminal closing) or past
   * a bound (a program still writing).
   */
  drainOutput(): boolean {
    const fd = (this.pty as { fd?: unknown }).fd;
    const stream = (this.pty as { _socket?: { readableLength?: unknown } })._socket;
    if (process.platform !== 'linux' || typeof fd !== 'number' || fd < 0 || this.exitInfo || this.dispatching) return false;
    if (this.pauseReasons.size > 0 || typeof stream?.readableLength !== 'number' || stream.readableLength > 0) return false;
    const buffer = (this.drainBuffer ??= Buffer.allocUnsafe(64 * 1024));
    // Bounded: a program still writing; EIO ends it as the terminal's other side closes (its exit is reported anyway).
    return drainFd(fd, buffer, 16, (bytes) => this.dispatch(this.decoder.write(bytes)));
  }

  /**
   * Flow control: while any reason holds, the pty is not read, so the kernel's buffer fills and the
   * program blocks in write() instead of main's memory growing.
   */
  pause(reason: string): void {
    if (this.pauseReasons.has(reason)) return;
    this.pauseReasons.add(reason);
    if (this.pauseReasons.size === 1) this.pty.pause();
  }

  resume(reason: string): void {
    if (!this.pauseReasons.delete(reason)) return;
    if (this.pauseReasons.size === 0) this.pty.resume();
  }

  signal(signal: NodeJS.Signals): void {
    if (this.exitInfo) return;
    try {
      process.kill(this.pid, signal);
    } catch {
      // Already gone.
    }
  }

  private dispatch(text: string): void {
    if (!text) return;
    this.dispatching = true;
    try {
      this.dataListener?.(text);
    } finally {
      this.dispatching = false;
    }
  }

  /** Resolves when the process has exited (or right away if it has). */
  waitForExit(): Promise<PtyExit> {
    return new Promise((resolve) => this.onExit(resolve));
  }
}

/**
 * Writes into a terminal's output through its device (`/dev/pts/N`), as a program on it would. The
 * terminal is opened for each write, so main never keeps it open. Without blocking first (the usual
 * case: a few bytes into an empty terminal), on the thread pool only when the terminal is full (main
 * is not reading it: flow control).
 */
export async function writeIntoTerminal(path: string, text: string): Promise<void> {
  try {
    const fd = openSync(path, constants.O_WRONLY | constants.O_NOCTTY | constants.O_NONBLOCK);
    try {
      if (writeSync(fd, text) === Buffer.byteLength(text)) return;
    } finally {
      closeSync(fd);
    }
  } catch {
    // EAGAIN (full) or a partial write: the blocking way below.
  }
  const file = await open(path, constants.O_WRONLY | constants.O_NOCTTY);
  try {
    await file.write(text);
  } finally {
    await file.close();
  }
}
