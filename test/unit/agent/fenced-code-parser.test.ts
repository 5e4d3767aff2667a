import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FencedCodeParser, type FenceEvent } from '../../../src-main/core/agent/reply/fenced-code-parser';
import { Languages } from '../../../src-main/core/exec';
import { cutAt } from '../../fixtures/llm-server-parts/chunking';

const runnable = (info: string) => Languages.findLanguage(info)?.name ?? null;

/** Feeds the text in the given pieces and returns prose and finished blocks. */
function parse(pieces: string[]): { text: string; blocks: Array<{ language: string; code: string }>; events: FenceEvent[] } {
  const parser = new FencedCodeParser(runnable);
  const events = [...pieces.flatMap((p) => parser.feed(p)), ...parser.finish()];
  return {
    events,
    text: events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join(''),
    blocks: events.flatMap((e) => (e.type === 'code-end' ? [{ language: e.language, code: e.code }] : [])),
  };
}

const splitAt = (text: string, cuts: number[]): string[] =>
  cutAt(
    text,
    cuts.map((c) => c % (text.length + 1)),
  );

const SAMPLE = [
  'Let me look.',
  '```python',
  'print("a ``` inside a string")',
  '    indented = "```"',
  '```',
  'Then a shell step:',
  '~~~bash',
  'echo hi',
  '~~~',
  '```json',
  '{"not": "run"}',
  '```',
  'Done. `inline code` stays.',
].join('\n');

describe('FencedCodeParser', () => {
  it('splits prose from runnable blocks and leaves other blocks in the text', () => {
    const { text, blocks } = parse([SAMPLE]);
    expect(blocks).toEqual([
      { language: 'python', code: 'print("a ``` inside a string")\n    indented = "```"' },
      { language: 'shell', code: 'echo hi' },
    ]);
    expect(text).toBe('Let me look.\nThen a shell step:\n```json\n{"not": "run"}\n```\nDone. `inline code` stays.');
  });

  it('gives the same result however the stream is cut', () => {
    const whole = parse([SAMPLE]);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 12 }), (cuts) => {
        const split = parse(splitAt(SAMPLE, cuts));
        expect(split.text).toBe(whole.text);
        expect(split.blocks).toEqual(whole.blocks);
      }),
    );
  });

  it('shows code while it is written, one character at a time', () => {
    const { events } = parse([...'```sh\necho one\necho two\n```\n']);
    const codes = events.flatMap((e) => (e.type === 'code' ? [e.code] : []));
    expect(codes[0]).toBe('e');
    expect(codes).toContain('echo one\n');
    expect(events.filter((e) => e.type === 'code-start')).toEqual([{ type: 'code-start', language: 'shell' }]);
  });

  it('takes a block left open at the end of the reply as complete', () => {
    expect(parse(['```python\nprint(1)\n']).blocks).toEqual([{ language: 'python', code: 'print(1)' }]);
    expect(parse(['```python\nprint(1)\n``']).blocks).toEqual([{ language: 'python', code: 'print(1)\n``' }]);
  });

  it('needs a longer fence to close a block opened with one', () => {
    const { blocks } = parse(['````markdown\n```python\nx\n```\n````\n```py\ny\n```']);
    expect(blocks).toEqual([{ language: 'python', code: 'y' }]);
  });
});
