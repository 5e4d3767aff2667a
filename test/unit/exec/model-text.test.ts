import { describe, expect, it } from 'vitest';
import { plainText, ModelText } from '../../../src-main/core/exec/output/model-text';

describe('text for the model', () => {
  it('removes colours, cursor moves and titles', () => {
    expect(plainText('\x1b[1;31mError\x1b[0m: \x1b[2Kbad\x1b]0;title\x07 thing\n')).toBe('Error: bad thing\n');
  });

  it('turns CRLF into LF and lets a carriage return overwrite the line', () => {
    expect(plainText('a\r\nprogress 10%\rprogress 50%\rprogress 100%\r\ndone\r\n')).toBe('a\nprogress 100%\ndone\n');
  });

  it('handles sequences and CRLF split across chunks', () => {
    const out: string[] = [];
    const m = new ModelText({ push: (t) => out.push(t) });
    for (const chunk of ['x\x1b', '[3', '1my\r', '\nz\r', 'w']) m.push(chunk);
    m.end();
    expect(out.join('')).toBe('xy\nw');
  });

  it('applies backspaces', () => {
    expect(plainText('abc\b\bX\n')).toBe('aX\n');
  });
});
