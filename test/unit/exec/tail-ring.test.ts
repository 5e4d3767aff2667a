import { describe, expect, it } from 'vitest';
import { suffixWithinBytes, TailRing } from '../../../src-main/core/exec/output/tail-ring';

const push = (ring: TailRing, text: string, stream: 'stdout' | 'stderr' = 'stdout') => ring.push(text, stream, Buffer.byteLength(text));

describe('TailRing', () => {
  it('keeps the latest bytes up to its limit, cutting the oldest piece it still needs', () => {
    const ring = new TailRing(10);
    for (const piece of ['aaaa', 'bbbb', 'cccc', 'dddd']) push(ring, piece);
    expect(ring.read()).toEqual([{ text: 'ccccdddd'.padStart(10, 'b'), stream: 'stdout' }]);
  });

  it('keeps each piece with its stream, joining neighbours of one stream', () => {
    const ring = new TailRing(12);
    push(ring, 'out1\n');
    push(ring, 'err1\n', 'stderr');
    push(ring, 'err2\n', 'stderr');
    push(ring, 'out2\n');
    // 20 bytes in, 12 kept: the oldest piece gone, the next cut to its end.
    expect(ring.read()).toEqual([
      { text: '1\nerr2\n', stream: 'stderr' },
      { text: 'out2\n', stream: 'stdout' },
    ]);
  });

  it('stays bounded over a long run of tiny pieces (the arrays are compacted)', () => {
    const ring = new TailRing(100);
    for (let i = 0; i < 200_000; i++) push(ring, `${i % 10}`);
    const [only] = ring.read();
    expect(only?.text).toHaveLength(100);
    expect(only?.text.endsWith('56789')).toBe(true);
  });

  it('never starts inside a character', () => {
    const ring = new TailRing(5);
    push(ring, 'ab€€');
    // '€' is 3 bytes: 5 bytes hold one of them, not a half of the other.
    expect(ring.read()).toEqual([{ text: '€', stream: 'stdout' }]);
    expect(suffixWithinBytes('x🎉', 3)).toBe('');
    expect(suffixWithinBytes('x🎉', 4)).toBe('🎉');
    expect(suffixWithinBytes('abc', 0)).toBe('');
  });
});
