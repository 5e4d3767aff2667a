import { describe, expect, it } from 'vitest';
import type { AnyEvent, CellItem, CellOutput, Conversation } from '../../../src-preload/contract';
import { SAVED_OUTPUT_MAX_LINES } from '../../../src-preload/contract/limits';
import { cellForPage, eventForPage, outputRows, resultForPage } from '../../../src-main/core/bridge/page-cells';

// What the page is sent of a cell's text (issue 25 item 13): the rows it draws and a marker of the
// rest, which `cell.output-rows` brings a page at a time — so every row stays reachable.

type Stream = Extract<CellOutput, { output_type: 'stream' }>;

function cell(outputs: CellOutput[], extra: Partial<CellItem> = {}): CellItem {
  return {
    kind: 'cell',
    id: 'c1',
    step: 's1',
    toolCallId: null,
    language: 'shell',
    code: 'seq 1 1000000',
    status: 'done',
    approval: null,
    outputs,
    exitCode: 0,
    durationMs: 1,
    executionCount: 1,
    startedAt: null,
    limits: null,
    resultForModel: null,
    ...extra,
  };
}

const stdout = (text: string): Stream => ({ output_type: 'stream', name: 'stdout', text });
const stderr = (text: string): Stream => ({ output_type: 'stream', name: 'stderr', text });
const conv = (items: CellItem[]): Conversation => ({ id: 'conv1', version: 1, items }) as unknown as Conversation;
const rows = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `${from + i + 1}\n`).join('');

/** The text a block shows once every page of its left-out rows has been brought in. */
function everyRow(page: CellItem, whole: Conversation): string {
  const at = page.outputs.findIndex((o) => o.output_type === 'stream' && o.rowsLeftOut);
  const marker = page.outputs[at] as Stream;
  const text = (os: CellOutput[]) => os.map((o) => (o.output_type === 'stream' ? o.text : '')).join('');
  let middle = '';
  for (let from = 0, left = 1; left > 0;) {
    const got = outputRows(whole, page.id, 0, from, SAVED_OUTPUT_MAX_LINES);
    middle += text(got.outputs);
    // As the page counts: the rows asked for less those still left (a row without its newline is one too).
    from = (marker.rowsLeftOut ?? 0) - got.rowsLeft;
    left = got.rowsLeft;
  }
  return text(page.outputs.slice(0, at)) + middle + text(page.outputs.slice(at + 1));
}

describe('the page is sent only the rows of a cell it draws', () => {
  it('sends a million-row print as its first and last 2,000 rows and a count of the rest, in under 100 KB', () => {
    const whole = cell([stdout(rows(0, 1_000_000))]);
    const page = cellForPage(whole);
    expect(page.outputs).toHaveLength(3);
    const [head, marker, tail] = page.outputs as Stream[];
    expect(head?.text).toBe(rows(0, 2000));
    expect(marker).toEqual({ output_type: 'stream', name: 'stdout', text: '', rowsLeftOut: 996_000 });
    expect(tail?.text).toBe(rows(998_000, 1_000_000));
    expect(JSON.stringify(page).length).toBeLessThan(100_000);
    // The saved cell is left whole.
    expect((whole.outputs[0] as Stream).text.length).toBeGreaterThan(6_000_000);
  });

  it('brings back every left-out row, a page at a time, in order, across stdout, stderr and outputs cut mid-row', () => {
    let x = 7;
    const next = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let round = 0; round < 20; round++) {
      const outputs: CellOutput[] = [];
      let all = '';
      for (let k = 0; k < 1 + Math.floor(next() * 30); k++) {
        let text = '';
        const n = Math.floor(next() * 1500);
        for (let r = 0; r < n; r++) text += next() < 0.01 ? 'partial ' : `row ${r}\n`;
        if (next() < 0.3) text += 'no newline';
        const o = next() < 0.3 ? stderr(text) : stdout(text);
        outputs.push(o);
        all += text;
      }
      const whole = cell(outputs);
      const page = cellForPage(whole);
      const markers = page.outputs.filter((o) => o.output_type === 'stream' && o.rowsLeftOut);
      if (markers.length === 0) {
        expect(page).toBe(whole);
        continue;
      }
      expect(markers).toHaveLength(1);
      expect(everyRow(page, conv([whole]))).toBe(all);
    }
  });

  it('cuts each block apart, keeps rich outputs where they were, and moves a first attempt’s end with its outputs', () => {
    const image: CellOutput = { output_type: 'display_data', data: { 'text/plain': 'plot' }, metadata: {} };
    const whole = cell([stdout(rows(0, 5000)), stderr('failed\n'), image, stdout(rows(0, 9000))], {
      firstAttempt: { outputs: 2, summary: 'first attempt: failed' },
    });
    const page = cellForPage(whole);
    // [head, marker, tail of the first block + its stderr], image, [head, marker, tail]
    expect(page.outputs.map((o) => (o.output_type === 'stream' ? (o.rowsLeftOut ?? o.name) : o.output_type))).toEqual([
      'stdout',
      1001,
      'stdout',
      'stderr',
      'display_data',
      'stdout',
      5000,
      'stdout',
    ]);
    expect(page.firstAttempt?.outputs).toBe(4);
    const second = outputRows(conv([whole]), 'c1', 1, 0, 3);
    expect(second.outputs).toEqual([stdout(rows(2000, 2003))]);
    expect(second.rowsLeft).toBe(4997);
  });

  it('leaves small cells, other events and other answers as they are', () => {
    const small = cell([stdout(rows(0, SAVED_OUTPUT_MAX_LINES))]);
    expect(cellForPage(small)).toBe(small);
    const terminal: AnyEvent = { name: 'cell.terminal', payload: { conversationId: 'conv1', cellId: 'c1', data: 'x' } };
    expect(eventForPage(terminal)).toBe(terminal);
    const c = conv([small]);
    expect(resultForPage(c)).toBe(c);
    expect(resultForPage({ ok: true })).toEqual({ ok: true });
  });

  it('cuts cells in events and in answers that carry a conversation', () => {
    const big = cell([stdout(rows(0, 10_000))]);
    const done = eventForPage({ name: 'cell.done', payload: { conversationId: 'conv1', cell: big, status: 'done' } });
    expect(done.name === 'cell.done' && done.payload.cell.outputs).toHaveLength(3);
    const added = eventForPage({ name: 'item.added', payload: { conversationId: 'conv1', item: big } });
    expect(added.name === 'item.added' && added.payload.item.kind === 'cell' && added.payload.item.outputs).toHaveLength(3);
    expect((resultForPage(conv([big])) as Conversation).items[0]).toEqual(cellForPage(big));
    const imported = resultForPage({ conversation: conv([big]), warnings: [] }) as { conversation: Conversation };
    expect(imported.conversation.items[0]).toEqual(cellForPage(big));
  });

  it('refuses rows of a cell that is gone, naming the problem', () => {
    expect(() => outputRows(conv([]), 'c1', 0, 0, 10)).toThrow('this cell is no longer in the conversation');
    expect(() => outputRows(conv([cell([stdout('one\n')])]), 'c1', 0, 0, 10)).toThrow('this output has no more rows left out');
  });
});
