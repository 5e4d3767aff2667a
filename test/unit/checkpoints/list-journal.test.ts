import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckpointRecords, type CheckpointEntry } from '../../../src-main/core/checkpoints/checkpoint-records';
import { MAX_LINES } from '../../../src-main/core/checkpoints/list-journal';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function folder(): { dir: string; workspace: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'oi-list-journal-'));
  dirs.push(dir);
  return { dir, workspace: dir };
}

const entry = (cellId: string, after: string | null = null): CheckpointEntry => ({
  cellId,
  before: `${cellId}-before`,
  after,
  createdAt: '2026-12-06T00:00:00.000Z',
  bytes: 10,
  changed: 0,
});

/** One cell's two saves, as CheckpointService.before and after make them (a fresh load each time). */
async function cell(records: CheckpointRecords, workspace: string, cellId: string): Promise<void> {
  const before = await records.forWorkspace('c1', workspace);
  before.entries.push(entry(cellId));
  await records.save('c1', before);
  const after = await records.forWorkspace('c1', workspace);
  const found = after.entries.find((e) => e.cellId === cellId);
  if (found) found.after = `${cellId}-after`;
  await records.save('c1', after);
}

/** A fresh folder's checkpoint lists, with the cells of each id saved in turn for conversation c1. */
async function withCells(...cellIds: string[]): Promise<{ dir: string; workspace: string; records: CheckpointRecords }> {
  const { dir, workspace } = folder();
  const records = new CheckpointRecords(dir);
  for (const cellId of cellIds) await cell(records, workspace, cellId);
  return { dir, workspace, records };
}

describe('checkpoint lists saved as appended lines', () => {
  it("a cell's before and after are appended, not rewritten, and another reader sees them", async () => {
    const { dir, workspace } = folder();
    const records = new CheckpointRecords(dir);
    await cell(records, workspace, 'a');
    const listAfterFirst = readFileSync(path.join(dir, 'c1.json'), 'utf8');
    await cell(records, workspace, 'b');
    // The list file itself is untouched by the second cell: its two saves went to the log.
    expect(readFileSync(path.join(dir, 'c1.json'), 'utf8')).toBe(listAfterFirst);
    expect(statSync(path.join(dir, 'c1.log')).size).toBeGreaterThan(0);
    const other = await new CheckpointRecords(dir).load('c1');
    expect(other?.entries.map((e) => [e.cellId, e.after])).toEqual([
      ['a', 'a-after'],
      ['b', 'b-after'],
    ]);
  });

  it('a line torn by a crash is skipped, and the lines after it still count', async () => {
    const { dir, workspace, records } = await withCells('a', 'b');
    // A crash in the middle of an append leaves part of a line; the next save still lands.
    appendFileSync(path.join(dir, 'c1.log'), '\n{"base":"0123","drop":["a"],"put":[{"cellI');
    await cell(records, workspace, 'c');
    const read = await new CheckpointRecords(dir).load('c1');
    expect(read?.entries.map((e) => [e.cellId, e.after])).toEqual([
      ['a', 'a-after'],
      ['b', 'b-after'],
      ['c', 'c-after'],
    ]);
  });

  it('a list written whole again makes every earlier line inert, even when the log was not removed', async () => {
    const { dir, records } = await withCells('a', 'b');
    const log = readFileSync(path.join(dir, 'c1.log'), 'utf8');
    const original = readFileSync(path.join(dir, 'c1.json'), 'utf8');
    // Someone (or a crash before the log's removal) leaves the old lines beside a list written anew
    // without cell b: the lines that named b were written against the old text and stay out.
    const rewritten = { version: 1, workspace: (await records.load('c1'))?.workspace, entries: [entry('a', 'a-other')] };
    writeFileSync(path.join(dir, 'c1.json'), JSON.stringify(rewritten));
    writeFileSync(path.join(dir, 'c1.log'), log);
    const read = await new CheckpointRecords(dir).load('c1');
    expect(read?.entries.map((e) => [e.cellId, e.after])).toEqual([['a', 'a-other']]);
    // Twin: beside the text they were written against, the same lines do apply.
    writeFileSync(path.join(dir, 'c1.json'), original);
    expect((await new CheckpointRecords(dir).load('c1'))?.entries.map((e) => e.cellId)).toEqual(['a', 'b']);
  });

  it('the log is folded into the list once it is long, and a removed conversation leaves neither file', async () => {
    const { dir, workspace } = folder();
    const records = new CheckpointRecords(dir);
    for (let i = 0; i <= MAX_LINES / 2 + 1; i++) await cell(records, workspace, `k${i}`);
    // The list was written whole again past MAX_LINES lines, with nothing lost.
    expect(
      existsSync(path.join(dir, 'c1.log')) ? readFileSync(path.join(dir, 'c1.log'), 'utf8').split('\n').filter(Boolean).length : 0,
    ).toBeLessThan(MAX_LINES);
    const read = await new CheckpointRecords(dir).load('c1');
    expect(read?.entries.map((e) => e.after)).toEqual(Array.from({ length: MAX_LINES / 2 + 2 }, (_, i) => `k${i}-after`));
    await records.remove('c1');
    expect(existsSync(path.join(dir, 'c1.json')) || existsSync(path.join(dir, 'c1.log'))).toBe(false);
  });

  it("a cell's loads take the list kept from the last save; another writer's line or whole write is read at once", async () => {
    const { dir, workspace } = folder();
    const records = new CheckpointRecords(dir);
    for (const id of ['a', 'b', 'c']) await cell(records, workspace, id);
    // One read from disk (the first, before the list existed): every later load took the kept list.
    expect(records.reads).toBe(1);
    // Another process's collector or app appends a line: this one sees it on its next load.
    const other = new CheckpointRecords(dir);
    await cell(other, workspace, 'd');
    expect((await records.load('c1'))?.entries.map((e) => [e.cellId, e.after])).toEqual([
      ['a', 'a-after'],
      ['b', 'b-after'],
      ['c', 'c-after'],
      ['d', 'd-after'],
    ]);
    expect(records.reads).toBe(2);
    // ... or writes the list whole (renamed over it): seen too, even within the same clock tick.
    const whole = { version: 1 as const, workspace: (await other.load('c1'))?.workspace ?? workspace, entries: [entry('a', 'a-again')] };
    await other.save('c1', whole);
    expect((await records.load('c1'))?.entries.map((e) => [e.cellId, e.after])).toEqual([['a', 'a-again']]);
    // This process's own next cell goes on from what the other wrote.
    await cell(records, workspace, 'e');
    expect((await new CheckpointRecords(dir).load('c1'))?.entries.map((e) => e.cellId)).toEqual(['a', 'e']);
  });
});
