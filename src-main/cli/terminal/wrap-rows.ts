// Code shown where a person decides whether it runs (the approval prompt, an edited cell, an install
// command) is broken at the terminal's width by us, not by the terminal, so each row a line wraps onto
// can start with a mark: a wrapped line is never read as two, and its tail is on screen before the
// question (docs/cli.md#long-lines). Widths are the terminal's: wide (East Asian) characters take two
// columns, combining marks none, a tab runs to the next multiple of 8.

/** Starts each row a line wraps onto. */
export const WRAP_MARK = '↪ ';
const MARK_COLUMNS = 2;
const TAB = 8;

/** Below this many columns there is no room to wrap into: the terminal's own wrapping is left to do it. */
const MIN_COLUMNS = MARK_COLUMNS + 8;

export interface Paint {
  /** Colours a run of the text (the code's colour). */
  text(s: string): string;
  /** Colours the mark (dim). */
  mark(s: string): string;
}

const PLAIN: Paint = { text: (s) => s, mark: (s) => s };

/**
 * Wraps text written to a terminal in pieces (code streaming in), remembering the column the last
 * piece left the cursor at. `atLineStart` tells it when something else ended the line in between.
 */
export class RowWrapper {
  private column = 0;

  constructor(private readonly paint: Paint = PLAIN) {}

  /** The text, painted, with a line break and the mark before each character that would pass the last column. */
  wrap(text: string, columns: number | null, atLineStart: boolean): string {
    if (atLineStart) this.column = 0;
    if (!columns || columns < MIN_COLUMNS) {
      this.column = columnAfter(text, this.column);
      return this.paint.text(text);
    }
    let out = '';
    let run = '';
    for (const ch of text) {
      if (ch === '\n') {
        run += ch;
        this.column = 0;
        continue;
      }
      const width = ch === '\t' ? TAB - (this.column % TAB) : charWidth(ch.codePointAt(0) ?? 0);
      if (width > 0 && this.column + width > columns) {
        out += `${this.paint.text(run)}\n${this.paint.mark(WRAP_MARK)}`;
        run = '';
        this.column = MARK_COLUMNS;
      }
      run += ch;
      // A tab after the mark runs from there (tab stops are the terminal's, every 8 columns).
      this.column += ch === '\t' ? TAB - (this.column % TAB) : width;
    }
    return out + this.paint.text(run);
  }
}

/** The whole text at once, from the start of a line. */
export function wrapRows(text: string, columns: number | null, paint: Paint = PLAIN): string {
  return new RowWrapper(paint).wrap(text, columns, true);
}

function columnAfter(text: string, column: number): number {
  const lastBreak = text.lastIndexOf('\n');
  return lastBreak >= 0 ? text.length - lastBreak - 1 : column + text.length;
}

/** Columns a character takes in a terminal (what wcwidth says, for the ranges that matter in code). */
export function charWidth(cp: number): number {
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (ZERO_WIDTH.test(String.fromCodePoint(cp))) return 0;
  return WIDE.some(([from, to]) => cp >= from && cp <= to) ? 2 : 1;
}

const ZERO_WIDTH = /^[\p{Mn}\p{Me}\u200b-\u200f\u2060\ufeff]$/u;

/** East Asian Wide and Fullwidth blocks, and the emoji most terminals draw two columns wide. */
const WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];
