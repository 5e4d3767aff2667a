import { describe, expect, it } from 'vitest';
import { ansiToHtml } from '../../../src-renderer/features/cells/ansi-to-html';

describe('saved terminal output as HTML', () => {
  it('turns SGR colours into classes and drops other escapes', () => {
    const { html } = ansiToHtml('\u001b[32mok\u001b[0m plain \u001b[1;31mbad\u001b[0m\u001b[2K\n');
    expect(html).toBe('<span class="ansi-green">ok</span> plain <span class="ansi-red ansi-bold">bad</span>');
  });

  it('applies carriage returns like a terminal (progress bars end at their last state)', () => {
    expect(ansiToHtml('10%\r50%\r100% done\n').html).toBe('100% done');
    expect(ansiToHtml('abcdef\rXY\n').html).toBe('XYcdef');
    expect(ansiToHtml('ab\bc\n').html).toBe('ac');
  });

  it('escapes markup in the output', () => {
    expect(ansiToHtml('<script>alert(1)</script>').html).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('keeps the last lines of very long output and counts the rest', () => {
    const text = Array.from({ length: 10 }, (_, i) => `line ${i}`).join('\n');
    expect(ansiToHtml(text, 3)).toEqual({ html: 'line 7\nline 8\nline 9', hiddenLines: 7, shownLines: 3 });
    expect(ansiToHtml(text, 0)).toEqual({ html: '', hiddenLines: 10, shownLines: 0 });
  });
});
