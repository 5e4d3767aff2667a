import { describe, expect, it } from 'vitest';
import { OscFilter, type TerminalPiece } from '../../../src-main/core/exec/output/osc-filter';

function feed(chunks: string[]): TerminalPiece[] {
  const filter = new OscFilter();
  const pieces = chunks.flatMap((c) => filter.push(c));
  const rest = filter.flush();
  if (rest) pieces.push({ kind: 'text', text: rest });
  // Adjacent text pieces are an artefact of chunking; merge them to compare meaning.
  return pieces.reduce<TerminalPiece[]>((acc, p) => {
    const last = acc[acc.length - 1];
    if (p.kind === 'text' && last?.kind === 'text') acc[acc.length - 1] = { kind: 'text', text: last.text + p.text };
    else acc.push(p);
    return acc;
  }, []);
}

const stream = 'out\x1b]633;C\x07hello\r\n\x1b]633;P;Cwd=/a\\x3bb\x07\x1b]633;D;3\x07\x1b]633;P;OiFence=abc\x1b\\tail';
const expected: TerminalPiece[] = [
  { kind: 'text', text: 'out' },
  { kind: 'commandStart' },
  { kind: 'text', text: 'hello\r\n' },
  { kind: 'property', key: 'Cwd', value: '/a;b' },
  { kind: 'commandEnd', exitCode: 3 },
  { kind: 'property', key: 'OiFence', value: 'abc' },
  { kind: 'text', text: 'tail' },
];

describe('OscFilter', () => {
  it('separates shell-integration sequences from text', () => {
    expect(feed([stream])).toEqual(expected);
  });

  it('gives the same result however the stream is split', () => {
    for (let size = 1; size <= 7; size++) {
      const chunks: string[] = [];
      for (let i = 0; i < stream.length; i += size) chunks.push(stream.slice(i, i + size));
      expect(feed(chunks)).toEqual(expected);
    }
  });

  it('leaves other escape sequences (colours, titles) in the text', () => {
    expect(feed(['\x1b[31mred\x1b[0m\x1b]0;title\x07'])).toEqual([{ kind: 'text', text: '\x1b[31mred\x1b[0m\x1b]0;title\x07' }]);
  });

  it('gives up on an unterminated sequence rather than buffering forever', () => {
    const pieces = feed(['\x1b]633;P;X=', 'y'.repeat(10_000)]);
    expect(pieces).toHaveLength(1);
    expect(pieces[0]).toMatchObject({ kind: 'text' });
  });
});
