import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CellOutput } from '@contract';
import { ModelOrder } from '../../../src-main/core/exec/output/model-order';
import { OscFilter } from '../../../src-main/core/exec/output/osc-filter';
import { OUTPUT_MARKER_KEY, outputMarkerSeq } from '../../../src-main/core/exec/runner/runner-protocol';
import { RunOutput } from '../../../src-main/core/exec/output/run-output';

// RunOutput puts each numbered rich output exactly at its position marker, whichever of the two
// arrives first (docs/exec-protocol.md, "Output position markers").

const dir = mkdtempSync(join(tmpdir(), 'oi-run-output-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const html = (label: string): CellOutput => ({
  output_type: 'display_data',
  data: { 'text/html': label, 'text/plain': label },
  metadata: {},
});
const text = (t: string): CellOutput => ({ output_type: 'stream', name: 'stdout', text: t });

function makeOutput(): { output: RunOutput; live: string[] } {
  const live: string[] = [];
  const output = new RunOutput({
    settings: { outputCapBytes: 1_000_000, modelOutputChars: 10_000 },
    spillPath: join(dir, 'spill.log'),
    spillRoot: dir,
    onTerminal: (t) => live.push(`terminal:${t}`),
    onOutput: (o) => live.push(`output:${o.output_type === 'display_data' ? String(o.data['text/plain']) : o.output_type}`),
    onBackpressure: () => undefined,
  });
  return { output, live };
}

/**
 * Feeds a run its events in order: a string is text printed to the terminal, a number the marker of
 * that number, and [output, n] a rich output numbered n ([output] one without a number).
 */
function play(output: RunOutput, ...steps: Array<string | number | [CellOutput, number?]>): void {
  for (const step of steps) {
    if (typeof step === 'string') output.terminal(step);
    else if (typeof step === 'number') output.marker(step);
    else output.rich(...step);
  }
}

describe('placing numbered rich outputs', () => {
  it('holds an output that arrives before its marker until the marker comes', async () => {
    const { output, live } = makeOutput();
    output.terminal('a\n');
    output.rich(html('one'), 0);
    output.terminal('b\n'); // printed before the display: still in flight when the output came
    expect(live.some((l) => l.startsWith('output:'))).toBe(false);
    output.marker(0);
    output.terminal('c\n');
    const finished = await output.finish();
    expect(finished.outputs).toEqual([text('a\nb\n'), html('one'), text('c\n')]);
    expect(finished.modelText).toBe('a\nb\none\n[text/html output shown to the user]\nc\n');
    // The live UI hears of the output after the text before it.
    expect(live).toEqual(['terminal:a\nb\n', 'output:one', 'terminal:c\n']);
  });

  it('splits the text at a marker that arrives first and fills the slot when the output comes', async () => {
    const { output } = makeOutput();
    play(output, 'a\n', 0, 'b\n', 1, 'c', [html('two'), 1], '\n', [html('one'), 0]);
    const finished = await output.finish();
    expect(finished.outputs).toEqual([text('a\n'), html('one'), text('b\n'), html('two'), text('c\n')]);
    expect(finished.modelText).toBe('a\none\n[text/html output shown to the user]\nb\ntwo\n[text/html output shown to the user]\nc\n');
  });

  it('places outputs whose marker never came at the end and drops markers whose output never came', async () => {
    const { output, live } = makeOutput();
    // Marker 0's output was lost.
    play(output, 'a\n', [html('two'), 2], 0, 'b\n', [html('one'), 1], 'c\n');
    const finished = await output.finish();
    expect(finished.outputs).toEqual([text('a\nb\nc\n'), html('one'), html('two')]);
    expect(finished.modelText).toBe('a\nb\nc\none\n[text/html output shown to the user]\ntwo\n[text/html output shown to the user]\n');
    expect(live.filter((l) => l.startsWith('output:'))).toEqual(['output:one', 'output:two']);
  });

  it('ignores a second marker with a number already seen', async () => {
    const { output } = makeOutput();
    play(output, 'a\n', 0, 'b\n', 0, 'c\n', [html('one'), 0]);
    const finished = await output.finish();
    expect(finished.outputs).toEqual([text('a\n'), html('one'), text('b\nc\n')]);
  });

  it('places an output whose number was already used, and one without a number, after the text so far', async () => {
    const { output } = makeOutput();
    play(output, 'a\n', 0, [html('one'), 0], 'b\n', [html('again'), 0], [html('unnumbered')]);
    const finished = await output.finish();
    expect(finished.outputs).toEqual([text('a\n'), html('one'), text('b\n'), html('again'), html('unnumbered')]);
  });

  it('keeps the model text flowing when too much waits behind a missing output, and reads the output where it arrives', () => {
    const read: string[] = [];
    const order = new ModelOrder({ push: (t) => read.push(t) }, 10);
    order.push('a\n');
    order.hole(0);
    order.push('b\n');
    expect(read.join('')).toBe('a\n');
    order.push('0123456789\n');
    expect(read.join('')).toBe('a\nb\n0123456789\n');
    order.fill(0, 'one\n');
    order.push('c\n');
    expect(read.join('')).toBe('a\nb\n0123456789\none\nc\n');
  });

  it('lets text through once every hole before it is filled, in order', () => {
    const read: string[] = [];
    const order = new ModelOrder({ push: (t) => read.push(t) });
    order.hole(0);
    order.push('a\n');
    order.hole(1);
    order.push('b\n');
    order.fill(1, 'two\n');
    expect(read).toEqual([]);
    order.fill(0, 'one\n');
    expect(read.join('')).toBe('one\na\ntwo\nb\n');
    order.push('c\n');
    expect(read.join('')).toBe('one\na\ntwo\nb\nc\n');
  });

  it("recognises this run's markers split across terminal reads, and only those", () => {
    const nonce = 'ab'.repeat(16);
    const filter = new OscFilter();
    const stream = `a\n\x1b]633;P;OiOutput=${nonce}:7\x07b\x1b]633;P;OiOutput=${'cd'.repeat(16)}:8\x07c\x1b]633;P;OiOutput=${nonce}:x\x07`;
    const pieces = [...stream].flatMap((ch) => filter.push(ch)); // one character per read
    const texts = pieces.flatMap((p) => (p.kind === 'text' ? [p.text] : []));
    const seqs = pieces.flatMap((p) => (p.kind === 'property' && p.key === OUTPUT_MARKER_KEY ? [outputMarkerSeq(p.value, nonce)] : []));
    expect(texts.join('')).toBe('a\nbc');
    expect(seqs).toEqual([7, null, null]);
  });
});
