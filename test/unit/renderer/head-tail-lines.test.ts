import { describe, expect, it } from 'vitest';
import { countRows, firstRows, keptRows, lastRows } from '../../../src-renderer/features/cells/head-tail-lines';

// The saved view's rule, written the obvious way (split every part into rows): what the scanning
// version must give for any text.
function byRows(texts: string[], half: number): { head: string; tail: string }[] {
  const rows = texts.map((t) => {
    const r = t.split('\n');
    if (t.endsWith('\n')) r.pop();
    return r;
  });
  const total = rows.reduce((a, r) => a + r.length, 0);
  let seen = 0;
  return rows.map((r) => {
    const head = r.filter((_, j) => seen + j < half);
    const tail = r.filter((_, j) => seen + j >= half && seen + j >= total - half);
    seen += r.length;
    return { head: head.length ? `${head.join('\n')}\n` : '', tail: tail.length ? `${tail.join('\n')}\n` : '' };
  });
}

function randomText(seed: number): string {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  const n = Math.floor(next() * 40);
  let s = '';
  for (let i = 0; i < n; i++) s += next() < 0.4 ? '\n' : String.fromCharCode(97 + Math.floor(next() * 3));
  return s;
}

describe('head and tail rows of a finished run, by scanning', () => {
  it('counts rows as split does, a final newline ending the last row', () => {
    for (const [text, rows] of [
      ['', 1],
      ['a', 1],
      ['a\n', 1],
      ['a\nb', 2],
      ['\n\n', 2],
      ['\n', 1],
      ['a\n\nb\n', 3],
    ] as const)
      expect(countRows(text), JSON.stringify(text)).toBe(rows);
  });

  it('cuts the first and last rows, each ending in a newline', () => {
    expect(firstRows('a\nb\nc', 2)).toBe('a\nb\n');
    expect(firstRows('a\nb\nc', 3)).toBe('a\nb\nc\n');
    expect(firstRows('a\nb\nc\n', 9)).toBe('a\nb\nc\n');
    expect(lastRows('a\nb\nc\n', 1)).toBe('c\n');
    expect(lastRows('\n\nx', 2)).toBe('\nx\n');
    expect(lastRows('\n\nx', 3)).toBe('\n\nx\n');
    expect(lastRows('a', 5)).toBe('a\n');
  });

  it('keeps exactly the rows the split-every-row rule keeps, for any parts', () => {
    for (let seed = 1; seed < 400; seed++) {
      const texts = [randomText(seed), randomText(seed * 7 + 1), randomText(seed * 13 + 5)].slice(0, 1 + (seed % 3));
      const counts = texts.map(countRows);
      const total = counts.reduce((a, b) => a + b, 0);
      const half = 1 + (seed % 5);
      if (total <= 2 * half) continue;
      expect(keptRows(texts, counts, total, half), `seed ${seed}`).toEqual(byRows(texts, half));
    }
  });

  it('keeps 4,000 of a million rows without splitting them', () => {
    const text = Array.from({ length: 1_000_000 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const [kept] = keptRows([text], [countRows(text)], 1_000_000, 2000);
    expect(kept?.head.split('\n').length).toBe(2001);
    expect(kept?.head.startsWith('line 1\n')).toBe(true);
    expect(kept?.head.endsWith('line 2000\n')).toBe(true);
    expect(kept?.tail.startsWith('line 998001\n')).toBe(true);
    expect(kept?.tail.endsWith('line 1000000\n')).toBe(true);
  });
});
