import { plainLine } from './plain-line';

/** The terminal a run's latest lines are redrawn on. */
export interface LiveTerminal {
  size(): { columns: number; rows: number };
  /** Writes made to the terminal so far, by anyone: a window is redrawn in place only when nothing came after it. */
  writes(): number;
}

/** Wide characters (CJK, Hangul, full-width forms, most emoji) take two columns of a terminal. */
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;
/** Combining marks and joiners take none. */
const ZERO_WIDTH = /\p{Mn}|\p{Me}|[\u200b-\u200d]|\ufe0f/u;

/**
 * The last lines of a running program's output, redrawn in place as more come (as other agent CLIs
 * show a command's output): a dim count line, then the latest lines. Every line is cut to the
 * terminal's width so each takes exactly one row: the redraw moves up by the rows it drew, which a
 * wrapped line would throw off. It is redrawn in place only when nothing else was written after it
 * and the width is unchanged (a resize may rewrap what is on screen); otherwise the next one is drawn
 * below, and the earlier one stays as a record.
 */
export class LiveWindow {
  private rows = 0;
  private width = 0;
  private expectedWrites = -1;

  constructor(
    private readonly terminal: LiveTerminal,
    private readonly maxLines: number,
  ) {}

  /** The text that puts this window on screen, in place of the previous one when that is still the last thing there. */
  draw(header: string, lines: string[]): string {
    const { columns, rows } = this.terminal.size();
    // Room for the count line, the prompt line and a row to spare: moving up past the top of the screen is not possible.
    const fits = Math.max(1, Math.min(this.maxLines, rows - 3));
    const shown = lines.slice(-fits);
    const text =
      this.erase() +
      `\x1b[2m${clipToWidth(header, columns - 1)}\x1b[22m\n` +
      shown.map((line) => `${clipToWidth(plainLine(line), columns - 1)}\n`).join('');
    this.rows = 1 + shown.length;
    this.width = columns;
    // This text is the next write to the terminal.
    this.expectedWrites = this.terminal.writes() + 1;
    return text;
  }

  /** The text that takes the window off the screen (nothing when something else was written after it). */
  erase(): string {
    const inPlace = this.rows > 0 && this.terminal.writes() === this.expectedWrites && this.terminal.size().columns === this.width;
    const text = inPlace ? `\r\x1b[${this.rows}A\x1b[J` : '';
    this.rows = 0;
    return text;
  }
}

/** The start of a line that fits in `width` columns (tabs expanded to the next multiple of 8). */
export function clipToWidth(text: string, width: number): string {
  let out = '';
  let used = 0;
  for (const ch of text) {
    const w = ch === '\t' ? 8 - (used % 8) : ZERO_WIDTH.test(ch) ? 0 : WIDE.test(ch) ? 2 : 1;
    if (used + w > width) break;
    out += ch === '\t' ? ' '.repeat(w) : ch;
    used += w;
  }
  return out;
}
