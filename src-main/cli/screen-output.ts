import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { Outputs } from '../core/exec';
import { LiveWindow, type LiveTerminal } from './live-window';
import { plainLine } from './plain-line';

export { plainLine };

export interface ScreenLimits {
  /** Lines shown as they come. */
  headLines: number;
  /** Lines kept and shown at the end, once more than head + tail came. */
  tailLines: number;
  /** Characters of one line shown; the rest is counted. */
  lineChars: number;
  /** Lines of the rolling live view past the head (a terminal only). */
  liveLines: number;
}

export const SCREEN_LIMITS: ScreenLimits = { headLines: 60, tailLines: 30, lineChars: 2000, liveLines: 10 };

/**
 * The whole output of a run that passed the engine's cap (docs/exec.md#huge-output): its file (the only
 * copy), size and line count, and its last lines as the saved outputs end — the live events stopped at
 * the cap, so only these are the real tail.
 */
export interface FullOutput {
  path: string;
  bytes: number;
  lines: number;
  lastLines: string[];
}

/** What a screen writes when its run ends, in this order (`note` on a line of its own). */
export interface ScreenEnd {
  /** Takes the live view off the screen (the cursor then starts the line where it began); '' when there was none. */
  erase: string;
  rest: string;
  note: string | null;
  tail: string;
}

/**
 * One cell's terminal output on the person's screen: the first lines as they come, then — when there
 * are more than fit — only a count, and at the end the last lines with the path of a file holding all
 * of it (as the model gets head and tail). A line longer than a screenful is cut with a count.
 * Meanwhile a terminal (`live`) shows the latest lines, redrawn in place (live-window.ts); without one
 * a note says at once that lines are held back, so nothing is left out unsaid.
 *
 * `plain` (stdout is a file or pipe, or NO_COLOR): the text as it would stand on a terminal — colour
 * and other escape codes removed, CR-LF as LF, a line rewritten with CR (a progress bar) as its last
 * state — so nothing but text reaches the file. Lines are written whole there.
 */
export class CellScreen {
  private shown = 0;
  /** Chars written on the current (head) line since its start or its last CR. */
  private lineLength = 0;
  /** What the current head line shows (since its start or its last CR), kept while it is short. */
  private lineText = '';
  private cutChars = 0;
  private pending = '';
  /** The last lines: their first lineChars characters, how many more there were, and whether they ended. */
  private readonly tail: Array<{ text: string; more: number; ends: boolean }> = [];
  private hidden = 0;
  /** The log file, opened once something is hidden (-1: it could not be). */
  private logFd: number | null = null;
  /** Head text kept for the log until it is opened; then what this chunk adds to it. */
  private forLog: string[] = [];
  private readonly window: LiveWindow | null;
  private heldBackSaid = false;

  constructor(
    private readonly plain: boolean,
    private readonly logFile: string,
    private readonly limits: ScreenLimits = SCREEN_LIMITS,
    live: LiveTerminal | null = null,
  ) {
    this.window = live && !plain ? new LiveWindow(live, limits.liveLines) : null;
  }

  get hiddenLines(): number {
    return this.hidden;
  }

  /** The text to write now for this chunk of output. */
  push(data: string): string {
    if (!this.plain) return this.lines(data.split(/(?<=\n)/));
    this.pending += data;
    const end = this.pending.lastIndexOf('\n');
    if (end < 0) return '';
    const complete = this.pending.slice(0, end + 1);
    this.pending = this.pending.slice(end + 1);
    return this.lines(
      complete
        .split('\n')
        .slice(0, -1)
        .map((l) => `${plainLine(l)}\n`),
    );
  }

  /**
   * Plain: the line held for its end, ended now — something else of the run's (its error, an image) is
   * about to be written, and what the program printed before it must stand before it (the prompt of an
   * input() that then failed came after the error it led to). A terminal shows the line already.
   */
  endHeldLine(): string {
    if (!this.plain || !this.pending) return '';
    const line = this.pending;
    this.pending = '';
    return this.lines([`${plainLine(line)}\n`]);
  }

  /**
   * The program printed the prompt of an input question, which the question's own line repeats with
   * the answer: the prompt is taken off this screen. Plain: the line was held for its end, and the
   * prompt goes from it. A terminal: the line was shown; when it holds only the prompt the caller
   * erases it ('erase'). 'absent': the prompt is not (yet) here.
   */
  takeBack(prompt: string): 'held' | 'erase' | 'absent' {
    if (!prompt) return 'absent';
    if (this.plain) {
      if (!this.pending.endsWith(prompt)) return 'absent';
      this.pending = this.pending.slice(0, -prompt.length);
      return 'held';
    }
    if (this.shown >= this.limits.headLines || this.lineText !== prompt) return 'absent';
    this.lineText = '';
    this.lineLength = 0;
    return 'erase';
  }

  /**
   * What is left when the run ends: the live view taken off, the end of a line cut short, then — when
   * lines were hidden — a note naming the file with all of the output, then the last lines. `full`:
   * the run passed the engine's cap, whose file holds all of it; this screen's own partial log goes.
   */
  finish(full: FullOutput | null = null): ScreenEnd {
    const erase = this.window?.erase() ?? '';
    let rest = '';
    if (this.pending) {
      rest += this.lines([plainLine(this.pending)]);
      this.pending = '';
    }
    if (this.cutChars > 0 && this.shown < this.limits.headLines) rest += this.cutNote();
    if (this.logFd !== null && this.logFd >= 0) closeSync(this.logFd);
    if (full) return this.finishFull(erase, rest, full);
    const tail = this.tail.map((l) => this.renderTail(l)).join('');
    if (this.hidden === 0) return { erase, rest: rest + tail, note: null, tail: '' };
    const note = `… ${count(this.hidden, 'line')} not shown; all of the output: ${this.logFile}`;
    return { erase, rest, note, tail };
  }

  private finishFull(erase: string, rest: string, full: FullOutput): ScreenEnd {
    if (this.logFd !== null) rmSync(this.logFile, { force: true });
    const lastLines = full.lastLines.slice(-this.limits.tailLines).map((line) => {
      const text = this.plain ? plainLine(line) : line;
      const cut = text.length > this.limits.lineChars;
      return { text: text.slice(0, this.limits.lineChars), more: cut ? text.length - this.limits.lineChars : 0, ends: true };
    });
    const hidden = Math.max(0, full.lines - this.shown - lastLines.length);
    const note = `… ${count(hidden, 'line')} not shown; all of the output (${Outputs.formatBytes(full.bytes)}): ${full.path}`;
    return { erase, rest, note, tail: lastLines.map((l) => this.renderTail(l)).join('') };
  }

  private lines(pieces: string[]): string {
    let out = '';
    let tailGrew = false;
    for (const piece of pieces) {
      if (!piece) continue;
      this.forLog.push(piece);
      if (this.shown < this.limits.headLines) out += this.headPiece(piece);
      else {
        this.tailPiece(piece);
        tailGrew = true;
      }
    }
    if (this.logFd !== null) this.flushLog();
    if (tailGrew) out += this.window ? this.liveView() : this.heldBackNote();
    return out;
  }

  private liveView(): string {
    const past = this.hidden + this.tail.length;
    const lines = this.tail.map((l) => l.text);
    return this.window?.draw(`… ${count(past, 'line')} after the first ${this.limits.headLines}; the latest:`, lines) ?? '';
  }

  /** Without a terminal to redraw on, said once: the lines after the head are held for the end. */
  private heldBackNote(): string {
    if (this.heldBackSaid) return '';
    this.heldBackSaid = true;
    return `… more than ${this.limits.headLines} lines: the rest is held, and its last ${this.limits.tailLines} shown when the run ends\n`;
  }

  /** A piece of a head line (or a whole one): shown, up to the line's length limit. */
  private headPiece(piece: string): string {
    const ends = piece.endsWith('\n');
    const body = ends ? piece.slice(0, -1) : piece;
    // A CR starts the line over on a terminal (progress bars): it does not make the line longer.
    const afterCr = body.lastIndexOf('\r');
    let out = '';
    if (this.cutChars > 0) this.cutChars += body.length;
    else {
      const room = this.limits.lineChars - (afterCr >= 0 ? 0 : this.lineLength);
      const visible = afterCr >= 0 ? body.slice(afterCr + 1) : body;
      if (visible.length <= room) {
        out = body;
        const text = afterCr >= 0 ? visible : this.lineText + body;
        this.lineText = text.length <= 200 ? text : '';
        this.lineLength = (afterCr >= 0 ? 0 : this.lineLength) + visible.length;
      } else {
        out = (afterCr >= 0 ? body.slice(0, afterCr + 1) : '') + visible.slice(0, Math.max(0, room));
        this.cutChars = visible.length - Math.max(0, room);
        this.lineLength = this.limits.lineChars;
      }
    }
    if (!ends) return out;
    this.lineText = '';
    const note = this.cutChars > 0 ? this.cutNote() : '\n';
    this.shown++;
    this.lineLength = 0;
    this.cutChars = 0;
    return out + note;
  }

  private cutNote(): string {
    // A cut may fall inside a colour: reset it so the note and what follows are not coloured.
    const count = this.cutChars;
    this.cutChars = 0;
    return `${this.plain ? '' : '\x1b[0m'} … (${count.toLocaleString('en-US')} more characters)\n`;
  }

  private tailPiece(piece: string): void {
    if (this.logFd === null) this.openLog();
    const ends = piece.endsWith('\n');
    const body = ends ? piece.slice(0, -1) : piece;
    const last = this.tail.at(-1);
    if (last && !last.ends) {
      const room = this.limits.lineChars - last.text.length;
      last.text += body.slice(0, Math.max(0, room));
      last.more += Math.max(0, body.length - room);
      last.ends = ends;
      return;
    }
    this.tail.push({ text: body.slice(0, this.limits.lineChars), more: Math.max(0, body.length - this.limits.lineChars), ends });
    if (this.tail.length > this.limits.tailLines) {
      this.tail.shift();
      this.hidden++;
    }
  }

  private renderTail(line: { text: string; more: number; ends: boolean }): string {
    const cut = line.more > 0 ? `${this.plain ? '' : '\x1b[0m'} … (${line.more.toLocaleString('en-US')} more characters)` : '';
    return `${line.text}${cut}${line.ends ? '\n' : ''}`;
  }

  private openLog(): void {
    try {
      mkdirSync(path.dirname(this.logFile), { recursive: true });
      this.logFd = openSync(this.logFile, 'w', 0o600);
    } catch {
      // The screen stays bounded either way; the note's path then names a file that could not be written.
      this.logFd = -1;
    }
  }

  /** One write per chunk of output (a million lines are a few hundred chunks, not a million writes). */
  private flushLog(): void {
    const text = this.forLog.join('');
    this.forLog = [];
    if (this.logFd === null || this.logFd < 0 || !text) return;
    try {
      writeSync(this.logFd, text);
    } catch {
      // as above
    }
  }
}

function count(n: number, what: string): string {
  return `${n.toLocaleString('en-US')} ${what}${n === 1 ? '' : 's'}`;
}
