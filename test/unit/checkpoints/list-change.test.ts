import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckpointRecords, type CheckpointEntry } from '../../../src-main/core/checkpoints/checkpoint-records';
import { applyChange, changeBetween, entryTexts, linesFor, listHash, recordText } from '../../../src-main/core/checkpoints/list-journal';

// A save compares the list's entries as texts kept from the last load or save (issue 37, seventh pass),
// not as the lists serialised again whole. These hold that what it appends is still exactly the change.

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const entry = (cellId: string, after: string | null = null, bytes = 10): CheckpointEntry => ({
  cellId,
  before: `${cellId}-before`,
  after,
  createdAt: '2026-12-06T00:00:00.000Z',
  bytes,
  changed: 0,
});

/** The rule as it was written before texts were kept: a change is taken when its replay serialises as `after` does. */
function replays(before: CheckpointEntry[], after: CheckpointEntry[]): boolean {
  const change = changeBetween(before, after);
  return change !== null && JSON.stringify(applyChange(before, change)) === JSON.stringify(after);
}

describe('a checkpoint list change found from kept texts', () => {
  it('finds what changed, and refuses what a replay cannot give (moved or repeated cells)', () => {
    const [a, b, c] = [entry('a'), entry('b'), entry('c')];
    // An "after" tree set on b: only b is put.
    expect(changeBetween([a, b], [a, entry('b', 'b-after')])).toEqual({ drop: [], put: [entry('b', 'b-after')] });
    // A cell added, one dropped by the store's budget.
    expect(changeBetween([a, b], [b, c])).toEqual({ drop: ['a'], put: [c] });
    // Nothing changed: an empty change.
    expect(changeBetween([a, b], [a, b])).toEqual({ drop: [], put: [] });
    // A cell moved: no line can say it, so the list is written whole.
    expect(changeBetween([a, b, c], [a, c, b])).toBeNull();
    expect(changeBetween([a, b], [b, a])).toBeNull();
    // The same cell twice in the new list: a replay puts it once.
    expect(changeBetween([a], [a, entry('b'), entry('b', 'x')])).toBeNull();
    for (const [before, after] of [
      [
        [a, b],
        [a, entry('b', 'b-after')],
      ],
      [
        [a, b],
        [b, c],
      ],
      [
        [a, b, c],
        [entry('a', null, 11), c],
      ],
      [[], [a]],
      [[a], []],
    ] as Array<[CheckpointEntry[], CheckpointEntry[]]>)
      expect(replays(before, after)).toBe(true);
  });

  it('a record written from its texts parses back as the record', () => {
    const record = { version: 1 as const, workspace: '/w "x"', entries: [entry('a'), entry('b', 'b-after')] };
    expect(JSON.parse(recordText(record, entryTexts(record.entries)))).toEqual(record);
    expect(JSON.parse(recordText({ entries: [] }, []))).toEqual({ entries: [] });
  });

  it('a save of a list whose other entries did not change appends the changed entry alone, and every reader reads it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'oi-list-change-'));
    dirs.push(dir);
    const records = new CheckpointRecords(dir);
    const first = await records.forWorkspace('c1', dir);
    first.entries.push(entry('a', 'a-after'), entry('b'), entry('c'));
    await records.save('c1', first); // new: written whole
    const reads = records.reads;
    for (const round of [1, 2, 3]) {
      const loaded = await records.forWorkspace('c1', dir); // the kept state (no read)
      const b = loaded.entries.find((e) => e.cellId === 'b');
      if (b) b.after = `b-after-${round}`;
      await records.save('c1', loaded);
    }
    const list = readFileSync(path.join(dir, 'c1.json'), 'utf8');
    const lines = linesFor<CheckpointEntry>(readFileSync(path.join(dir, 'c1.log'), 'utf8'), listHash(list));
    // One line a save, each holding b alone, as it was then.
    expect(lines.map((l) => [l.drop, l.put.map((e) => [e.cellId, e.after])])).toEqual([
      [[], [['b', 'b-after-1']]],
      [[], [['b', 'b-after-2']]],
      [[], [['b', 'b-after-3']]],
    ]);
    const expected = [
      ['a', 'a-after'],
      ['b', 'b-after-3'],
      ['c', null],
    ];
    // This process's kept state, and another reader's from the files.
    expect((await records.load('c1'))?.entries.map((e) => [e.cellId, e.after])).toEqual(expected);
    expect((await new CheckpointRecords(dir).load('c1'))?.entries.map((e) => [e.cellId, e.after])).toEqual(expected);
    expect(records.reads).toBe(reads); // the saves' states were kept: nothing read back
  });
});
