import { describe, expect, it } from 'vitest';
import { charWidth, RowWrapper, WRAP_MARK, wrapRows } from '../../../src-main/cli/terminal/wrap-rows';

const rowsOf = (text: string) => text.split('\n');

describe('code broken at the terminal width, each wrapped row marked', () => {
  it('breaks a long line at the last column and starts each continuation row with the mark; short lines are untouched', () => {
    const long = 'a'.repeat(25);
    const out = wrapRows(`short\n${long}\nend`, 10);
    expect(rowsOf(out)).toEqual(['short', 'aaaaaaaaaa', `${WRAP_MARK}aaaaaaaa`, `${WRAP_MARK}aaaaaaa`, 'end']);
    // Without the marks and the breaks they stand for, the text is the code again.
    expect(out.replaceAll(`\n${WRAP_MARK}`, '')).toBe(`short\n${long}\nend`);
  });

  it('does not break a line that exactly fills the width', () => {
    expect(wrapRows('0123456789\nx', 10)).toBe('0123456789\nx');
  });

  it('counts wide characters as two columns and combining marks as none', () => {
    expect(charWidth('日'.codePointAt(0) ?? 0)).toBe(2);
    expect(charWidth(0x301)).toBe(0);
    expect(rowsOf(wrapRows('日本語日本語', 10))).toEqual(['日本語日本', `${WRAP_MARK}語`]);
    expect(rowsOf(wrapRows(`${'e\u0301'.repeat(10)}x`, 10))).toEqual(['e\u0301'.repeat(10), `${WRAP_MARK}x`]);
  });

  it('runs a tab to the next multiple of 8, breaking before a tab that would pass the edge', () => {
    expect(rowsOf(wrapRows('abcdefghijk\tz', 12))).toEqual(['abcdefghijk', `${WRAP_MARK}\tz`]);
  });

  it('keeps the column across pieces of streamed code, and starts again after something else ended the line', () => {
    const rows = new RowWrapper();
    expect(rows.wrap('abcdef', 10, true)).toBe('abcdef');
    expect(rows.wrap('ghijkl', 10, false)).toBe(`ghij\n${WRAP_MARK}kl`);
    expect(rows.wrap('mnop', 10, true)).toBe('mnop');
  });

  it('paints the code and the mark each in its own colour', () => {
    const out = wrapRows('abcdefghijkl', 10, { text: (s) => `<${s}>`, mark: (s) => `[${s}]` });
    expect(out).toBe(`<abcdefghij>\n[${WRAP_MARK}]<kl>`);
  });

  it('leaves the text as it is where there is no width to wrap at', () => {
    expect(wrapRows('x'.repeat(50), null)).toBe('x'.repeat(50));
    expect(wrapRows('x'.repeat(50), 4)).toBe('x'.repeat(50));
  });
});
