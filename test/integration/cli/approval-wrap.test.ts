import { describe, expect, it } from 'vitest';
import { RUN_QUESTION } from '../../../src-main/cli/approval-questions';
import { lastToolResult, shellCall, useOiTerminal } from './support/oi-terminal-run';

// Issue 25, item 2, in the terminal: a line of code longer than the terminal is broken at its width by
// oi, each row it wraps onto starting with "↪ ", so the whole line is on screen, and read as one line,
// when oi asks whether to run it. Read from the screen a terminal emulator of 60 columns shows.

const COLUMNS = 60;
const MARK = '↪ ';
/** About 170 columns: words, wide characters (two columns each) and a URL with no place to break. */
const LONG = `echo "the whole line must be seen 日本語のテキスト before it runs" https://example.invalid/${'x'.repeat(70)} TAIL-END`;
const CODE = `echo short\n${LONG}\necho last`;

const { start } = useOiTerminal();

describe('the approval prompt in a narrow terminal', () => {
  it('shows a long line whole across rows at 60 columns, each continuation row marked, short lines not', async () => {
    const { oi, llm } = await start({}, [], { cols: COLUMNS });
    llm.enqueue(shellCall('call_long', CODE), { kind: 'text', text: 'Ran the long line.' });
    await oi.expect('> ');
    oi.line('print a long line');
    await oi.expect('Run this code?');
    const screen = await oi.screen();
    const header = screen.findIndex((row) => row.startsWith('── shell'));
    const end = screen.findIndex((row, i) => i > header && /^─{10,}$/.test(row));
    expect(header).toBeGreaterThanOrEqual(0);
    const rows = screen.slice(header + 1, end);
    expect(rows[0]).toBe('echo short');
    expect(rows.at(-1)).toBe('echo last');
    const long = rows.slice(1, -1);
    // The line takes several rows, every one after the first starts with the mark.
    expect(long.length).toBeGreaterThanOrEqual(3);
    expect(long[0]?.startsWith(MARK)).toBe(false);
    for (const row of long.slice(1)) expect(row.startsWith(MARK)).toBe(true);
    // Nothing is lost: the rows, the marks taken out, are the line.
    expect(long.map((row, i) => (i === 0 ? row : row.slice(MARK.length))).join('')).toBe(LONG);

    oi.line('y');
    await oi.expect('Ran the long line.');
    // The code that ran is the model's, without the marks.
    expect(lastToolResult(llm)).toContain('TAIL-END');
    expect(lastToolResult(llm)).not.toContain(MARK);
  });
});

// Issue 25, item 8: a resize while oi asks redraws the question once, where it was, at the new width;
// readline's own repaint counted the rows of the old width, so the terminal's reflowed question was
// drawn again below a stale fragment of it (narrower) or over a line of the output (wider).
describe('the approval question when the terminal is resized', () => {
  it('is on screen once, whole, with nothing stale, after narrowing and widening the terminal mid-question', async () => {
    const { oi, llm } = await start({}, [], { cols: 120 });
    llm.enqueue(shellCall('call_resize', 'echo output-above-the-question'), { kind: 'text', text: 'Resized and ran.' });
    await oi.expect('> ');
    oi.line('run something');
    await oi.expect('Run this code?');
    oi.type('ye');
    await oi.expect('ye');
    /** Rows below the code's closing rule (reflowed onto several rows, maybe): the question's and nothing else. */
    const afterCode = async (): Promise<string[]> => {
      const screen = await oi.screen();
      let after = screen.indexOf('echo output-above-the-question') + 1;
      while (/^─+$/.test(screen[after] ?? '')) after++;
      return screen.slice(after);
    };
    const shown = async (cols: number, marker: string): Promise<string[]> => {
      const before = oi.output.length;
      await oi.resize(cols, 30);
      // oi has redrawn the question (what the screen then shows is asserted below); the marker's echo
      // comes after the redraw: once the marker is on screen, so is the redraw.
      await expect.poll(() => oi.output.slice(before).includes('Run this code?')).toBe(true);
      oi.type(marker);
      await expect.poll(async () => (await oi.cursorRow()).endsWith(marker)).toBe(true);
      return afterCode();
    };
    const question = `${RUN_QUESTION}ye`;
    for (const [cols, marker] of [
      [40, 's'],
      [120, '!'],
      [33, '?'],
    ] as const) {
      const typed = `${question}${'s!?'.slice(0, 's!?'.indexOf(marker) + 1)}`;
      const rows = await shown(cols, marker);
      // Once, whole: the rows are the question as typed so far, wrapped at the new width, and nothing else.
      expect(rows.join('')).toBe(typed);
      expect(rows.length).toBe(Math.ceil(typed.length / cols));
      const screen = (await oi.screen()).join('\n');
      expect(screen.split('Run this code?').length - 1).toBe(1);
      // The output above the question is untouched.
      expect(screen).toContain('echo output-above-the-question');
    }
    oi.type('\x15y\r');
    await oi.expect('Resized and ran.');
  });
});
