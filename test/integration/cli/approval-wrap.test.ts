import { describe, expect, it } from 'vitest';
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
