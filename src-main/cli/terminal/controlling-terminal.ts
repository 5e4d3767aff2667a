import { closeSync, openSync } from 'node:fs';
import tty from 'node:tty';

/** The terminal keys are read from, and its file descriptor (given to the editor, which needs a terminal). */
export interface Keyboard {
  stream: NodeJS.ReadStream;
  fd: number;
}

/**
 * Where the person's keys come from: standard input when it is a terminal; else the controlling
 * terminal (/dev/tty), when oi has one — `git diff | oi "review this"` reads the diff from the pipe and
 * the answers to its questions from the terminal, as git and less do. Null when there is none (cron, CI,
 * a process started without a terminal: opening /dev/tty fails with ENXIO) or on Windows.
 */
export function keyboardInput(stdin: NodeJS.ReadStream): Keyboard | null {
  if (stdin.isTTY) return { stream: stdin, fd: 0 };
  if (process.platform === 'win32') return null;
  let fd: number;
  try {
    fd = openSync('/dev/tty', 'r');
  } catch {
    return null;
  }
  if (tty.isatty(fd)) return { stream: new tty.ReadStream(fd), fd };
  closeSync(fd);
  return null;
}
