import { describe, expect, it } from 'vitest';
import { escapeHtml, highlight, highlightLines, MAX_HIGHLIGHT_CHARS } from '../../../src-renderer/features/highlight/highlight';

const tokens = (html: string) => [...html.matchAll(/<span class="tok-(\w+)">([^<]*)<\/span>/g)].map((m) => [m[1], m[2]]);

describe('the code highlighter', () => {
  it('marks Python keywords, strings, comments, numbers and calls', () => {
    const html = highlight('def f(x):\n    return "a#b" + str(42)  # done', 'python');
    expect(tokens(html)).toEqual([
      ['keyword', 'def'],
      ['function', 'f'],
      ['keyword', 'return'],
      ['string', '&quot;a#b&quot;'],
      ['builtin', 'str'],
      ['number', '42'],
      ['comment', '# done'],
    ]);
  });

  it('knows languages by their aliases and highlights shell variables and options', () => {
    expect(tokens(highlight('echo "$HOME" --verbose $x', 'bash'))).toEqual([
      ['builtin', 'echo'],
      ['string', '&quot;$HOME&quot;'],
      ['meta', '--verbose'],
      ['variable', '$x'],
    ]);
    expect(tokens(highlight('const a = 1;', 'ts'))).toEqual([
      ['keyword', 'const'],
      ['number', '1'],
    ]);
  });

  it('highlights an unterminated string or comment to the end, as code does while it streams in', () => {
    expect(tokens(highlight('x = """doc\nstill doc', 'python'))).toEqual([['string', '&quot;&quot;&quot;doc\nstill doc']]);
    expect(tokens(highlight('a /* open', 'js'))).toEqual([['comment', '/* open']]);
  });

  it('escapes everything, whatever the language, so its output is safe markup', () => {
    const evil = '<img src=x onerror=alert(1)>';
    for (const lang of ['python', 'html', 'nope', 'json']) {
      const html = highlight(evil, lang);
      expect(html).not.toMatch(/<img/);
      expect(html.replace(/<\/?span[^>]*>/g, '')).toBe(escapeHtml(evil));
    }
  });

  it('leaves very large inputs unhighlighted but escaped', () => {
    const big = 'x = 1\n'.repeat(MAX_HIGHLIGHT_CHARS / 5);
    expect(highlight(big, 'python')).toBe(escapeHtml(big));
  });

  it('cuts the highlighted code into lines that each stand alone as markup, a docstring closed and reopened', () => {
    const code = 'x = """doc\nstill doc"""\n\nprint(x)';
    const lines = highlightLines(code, 'python');
    expect(lines).toEqual([
      'x = <span class="tok-string">&quot;&quot;&quot;doc</span>',
      '<span class="tok-string">still doc&quot;&quot;&quot;</span>',
      '',
      '<span class="tok-builtin">print</span>(x)',
    ]);
    // Without the markup, the lines joined are the code again.
    const text = lines.map((l) => l.replace(/<\/?span[^>]*>/g, '')).join('\n');
    expect(text).toBe(escapeHtml(code));
    expect(highlightLines('a\n<b>', 'nope')).toEqual(['a', '&lt;b&gt;']);
  });
});
