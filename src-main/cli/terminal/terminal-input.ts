import { EventEmitter } from 'node:events';
import readline, { type Key } from 'node:readline';

/** One thing the person did at the keyboard: a key, or a whole paste (bracketed by the terminal). */
export type InputEvent = { kind: 'key'; text: string; key: Key } | { kind: 'paste'; text: string };

// Bracketed paste (xterm, and every terminal people use today): the terminal wraps pasted text in
// ESC[200~ … ESC[201~, so a paste is one piece of text and its newlines are not Enter.
const PASTE_ON = '\x1b[?2004h';
const PASTE_OFF = '\x1b[?2004l';

/**
 * The stream readline reads its keys from. readline's own key handling is what we want for editing a
 * line (cursor moves, history, wide characters, wrapping), but it must never see a paste — it would
 * turn each pasted newline into Enter. So readline gets this stand-in, and only the keys we give it.
 */
export class ReadlineKeys extends EventEmitter {
  readonly isTTY = true;
  isRaw = false;

  constructor(private readonly setRaw: (on: boolean) => void) {
    super();
  }

  setRawMode(on: boolean): this {
    this.isRaw = on;
    this.setRaw(on);
    return this;
  }

  // readline pauses and resumes its input; the real terminal is paused by TerminalInput.suspend().
  pause(): this {
    return this;
  }

  resume(): this {
    return this;
  }

  give(text: string, key: Key): void {
    this.emit('keypress', text, key);
  }
}

/**
 * The person's terminal as a source of input events: raw mode, bracketed paste, and the end of the
 * terminal (hangup). Setting the terminal's mode after it is gone fails with EIO; every such call is
 * guarded here, so a closed terminal ends the session quietly instead of crashing it.
 */
export class TerminalInput extends EventEmitter<{ input: [InputEvent]; hangup: [] }> {
  readonly readlineKeys: ReadlineKeys;
  hungUp = false;
  private paste: string | null = null;
  /** Enter was pressed; it is a submit unless more keys follow in the same read (a paste without brackets). */
  private heldReturn: { text: string; key: Key } | null = null;
  private unbracketed: string | null = null;
  private started = false;
  private suspended = false;
  private readonly onKeypress = (text: string | undefined, key: Key | undefined) =>
    this.keypress(text ?? '', key ?? { sequence: text ?? '' });
  private readonly onHangup = () => this.hangup();
  private readonly onOutputError = (err: NodeJS.ErrnoException) => {
    // Writing to a terminal that is gone: EIO (tty) or EPIPE. Anything else is not ours to hide.
    if (err.code === 'EIO' || err.code === 'EPIPE' || err.code === 'ENXIO') this.hangup();
    else throw err;
  };

  constructor(
    private readonly stdin: NodeJS.ReadStream,
    private readonly out: NodeJS.WriteStream,
    /** stdin's file descriptor: 0, or /dev/tty's when standard input is a pipe (controlling-terminal.ts). */
    private readonly inputFd = 0,
  ) {
    super();
    this.readlineKeys = new ReadlineKeys((on) => this.setRaw(on));
  }

  /** The terminal's file descriptors, for a program given the terminal (the editor): keys in, text out. */
  get fds(): { input: number; output: number } {
    return { input: this.inputFd, output: (this.out as { fd?: number }).fd ?? 1 };
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    readline.emitKeypressEvents(this.stdin);
    this.stdin.on('keypress', this.onKeypress);
    this.stdin.on('end', this.onHangup);
    this.stdin.on('error', this.onHangup);
    this.out.on('error', this.onOutputError);
    process.on('SIGHUP', this.onHangup);
    this.setRaw(true);
    this.stdin.resume();
  }

  /** Gives the terminal to another program (the editor, a `!` command) until resume(). */
  suspend(): void {
    if (this.suspended || this.hungUp) return;
    this.suspended = true;
    this.stdin.pause();
    this.setRaw(false);
  }

  resume(): void {
    if (!this.suspended || this.hungUp) return;
    this.suspended = false;
    this.setRaw(true);
    this.stdin.resume();
  }

  /** Puts the terminal back as it was: paste brackets off, cooked mode, stdin released. */
  stop(): void {
    if (!this.started) return;
    this.started = false;
    this.stdin.off('keypress', this.onKeypress);
    this.stdin.off('end', this.onHangup);
    process.off('SIGHUP', this.onHangup);
    this.setRaw(false);
    this.stdin.pause();
  }

  private setRaw(on: boolean): void {
    if (this.hungUp) return;
    try {
      if (this.stdin.isTTY) this.stdin.setRawMode(on);
      // A shell that ran while we were suspended may have turned bracketed paste off: ask again.
      if (this.out.isTTY && !this.out.destroyed) this.out.write(on ? PASTE_ON : PASTE_OFF);
    } catch (err) {
      // EIO: the terminal went away between two keystrokes.
      if ((err as NodeJS.ErrnoException).code === 'EIO' || (err as NodeJS.ErrnoException).code === 'EBADF') this.hangup();
      else throw err;
    }
  }

  private hangup(): void {
    if (this.hungUp) return;
    this.hungUp = true;
    this.stdin.off('keypress', this.onKeypress);
    this.emit('hangup');
  }

  private keypress(text: string, key: Key): void {
    if (this.hungUp) return;
    if (key.name === 'paste-start') {
      this.flushHeld();
      this.paste = '';
      return;
    }
    if (key.name === 'paste-end') {
      const pasted = this.paste ?? '';
      this.paste = null;
      if (pasted) this.emit('input', { kind: 'paste', text: pasted });
      return;
    }
    if (this.paste !== null) {
      this.paste += pastedText(text, key);
      return;
    }
    if (this.unbracketed !== null) {
      this.unbracketed += pastedText(text, key);
      return;
    }
    if (this.heldReturn) {
      // More keys in the same read as an Enter: a terminal without bracketed paste pasting lines.
      this.unbracketed = `\n${pastedText(text, key)}`;
      this.heldReturn = null;
      return;
    }
    if (key.name === 'return' || key.name === 'enter') {
      this.heldReturn = { text, key };
      // emitKeypressEvents emits every key of one read synchronously: anything after Enter arrives first.
      setImmediate(() => this.flushHeld());
      return;
    }
    this.emit('input', { kind: 'key', text, key });
  }

  private flushHeld(): void {
    if (this.unbracketed !== null) {
      // A trailing newline of a paste is not an Enter: the person sends it when they are ready.
      const text = this.unbracketed.replace(/\n$/, '');
      this.unbracketed = null;
      this.emit('input', { kind: 'paste', text });
      return;
    }
    const held = this.heldReturn;
    this.heldReturn = null;
    if (held) this.emit('input', { kind: 'key', text: held.text, key: held.key });
  }
}

/** A key inside a paste as the text it stands for (Enter is a newline there, not a submit). */
function pastedText(text: string, key: Key): string {
  if (key.name === 'return' || key.name === 'enter') return '\n';
  return key.sequence ?? text;
}
