import { createHash } from 'node:crypto';
import { closeSync, constants, fdatasync, fstatSync, openSync, writeSync, type BigIntStats } from 'node:fs';
import { promisify } from 'node:util';
import path from 'node:path';
import { syncDir } from '../fs/atomic-write';

/**
 * The lines appended beside a conversation's list of checkpoints (`<id>.log` beside `<id>.json`), so a
 * cell's two list updates (its "before" entry, then its "after" tree) cost one appended line and one
 * fdatasync each instead of a whole atomic rewrite (temp file, fsync, rename, folder fsync).
 *
 * Each line names the list file it applies to by a hash of that file's text: a line is replayed only
 * on the very list it was written against. So a whole rewrite of the list (the journal's compaction, a
 * list written by an older build, or a list someone edited in the data folder) makes every earlier line
 * inert at once, with no ordering between the rename and the log's removal to get right; and a line
 * torn by a crash does not parse and is skipped (each line starts on a fresh line, so a torn one never
 * swallows the next).
 */

/** An entry of the list: what the journal needs of it is its cell. */
export interface Keyed {
  cellId: string;
}

export interface ListChange<E extends Keyed = Keyed> {
  /** Hash of the list file's text this line applies to. */
  base: string;
  /** Cells whose entries went. */
  drop: string[];
  /** Entries replaced in place (same cell) or added at the end. */
  put: E[];
}

/** Lines past this many, the list is written whole again and the log emptied. */
export const MAX_LINES = 64;

export function listHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

export function applyChange<E extends Keyed>(entries: E[], change: Pick<ListChange<E>, 'drop' | 'put'>): E[] {
  const dropped = new Set(change.drop);
  const out = entries.filter((e) => !dropped.has(e.cellId));
  for (const entry of change.put) {
    const at = out.findIndex((e) => e.cellId === entry.cellId);
    if (at >= 0) out[at] = entry;
    else out.push(entry);
  }
  return out;
}

/**
 * Each entry of a list as its cell and its JSON, in the list's order. What a save compares against: a
 * list's entries are serialised once a save (the new state's), not five times (issue 37, seventh pass).
 */
export type EntryTexts = ReadonlyArray<readonly [cellId: string, json: string]>;

export function entryTexts<E extends Keyed>(entries: readonly E[]): EntryTexts {
  return entries.map((e) => [e.cellId, JSON.stringify(e)] as const);
}

/** What turns `before` into `after` as one line, or null when replaying it would not give `after` exactly. */
export function changeBetween<E extends Keyed>(before: E[], after: E[]): Pick<ListChange<E>, 'drop' | 'put'> | null {
  return changeBetweenTexts(entryTexts(before), after, entryTexts(after));
}

/**
 * changeBetween with both lists' entries already serialised (`afterTexts` is `after`'s, entry by entry).
 * The replay is checked on the texts: two lists serialise alike exactly when they hold the same
 * entries' texts in the same order (each text is one whole JSON object, so `[a,b]` splits one way).
 */
export function changeBetweenTexts<E extends Keyed>(
  before: EntryTexts,
  after: readonly E[],
  afterTexts: EntryTexts,
): Pick<ListChange<E>, 'drop' | 'put'> | null {
  const old = new Map(before);
  const kept = new Set(afterTexts.map(([id]) => id));
  const drop = before.filter(([id]) => !kept.has(id)).map(([id]) => id);
  const putAt = afterTexts.flatMap(([id, json], i) => (old.get(id) !== json ? [i] : []));
  // The replay (applyChange's) on the texts. An order a replay cannot give (a cell moved) is written whole instead.
  const dropped = new Set(drop);
  const replayed = before.filter(([id]) => !dropped.has(id));
  for (const i of putAt) {
    const text = afterTexts[i] as readonly [string, string];
    const at = replayed.findIndex(([id]) => id === text[0]);
    if (at >= 0) replayed[at] = text;
    else replayed.push(text);
  }
  const same = replayed.length === afterTexts.length && replayed.every(([, json], i) => json === afterTexts[i]?.[1]);
  return same ? { drop, put: putAt.map((i) => after[i] as E) } : null;
}

/** A list's record as JSON from its entries' texts (the other fields serialised as they are): parsed back, it is the record. */
export function recordText(record: { entries: unknown }, texts: EntryTexts): string {
  const { entries: _entries, ...head } = record;
  const fields = JSON.stringify(head).slice(0, -1);
  return `${fields}${fields === '{' ? '' : ','}"entries":[${texts.map(([, json]) => json).join(',')}]}`;
}

/** The lines of `log` that apply to the list whose text hashes to `base`, in order. */
export function linesFor<E extends Keyed>(log: string, base: string): Array<ListChange<E>> {
  const out: Array<ListChange<E>> = [];
  for (const line of log.split('\n')) {
    if (!line) continue;
    try {
      const parsed = JSON.parse(line) as ListChange<E>;
      if (parsed.base === base && Array.isArray(parsed.drop) && Array.isArray(parsed.put)) out.push(parsed);
    } catch {
      /* torn by a crash: never acknowledged, so never relied on */
    }
  }
  return out;
}

/** What an append saw through its handle: the log before the line (inode, size) and after it. */
export interface Appended {
  before: { ino: bigint; size: bigint };
  after: BigIntStats;
  bytes: number;
}

const datasync = promisify(fdatasync);

/**
 * Appends one line and waits until it is on disk (the folder too, when the log is new). The open, the
 * two fstats, the write of a few hundred bytes into the page cache and the close are synchronous: each
 * is microseconds, where a trip through libuv's thread pool wakes a worker and then main, and a cell
 * appends twice (issue 37: 8 trips a step). The fdatasync, which waits for the disk, stays off main.
 */
export async function appendLine<E extends Keyed>(file: string, change: ListChange<E>): Promise<Appended> {
  const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  const line = Buffer.from(`\n${JSON.stringify(change)}\n`);
  let appended: Appended;
  try {
    const before = fstatSync(fd, { bigint: true });
    for (let done = 0; done < line.length;) done += writeSync(fd, line, done);
    await datasync(fd);
    appended = { before: { ino: before.ino, size: before.size }, after: fstatSync(fd, { bigint: true }), bytes: line.length };
  } finally {
    closeSync(fd);
  }
  if (appended.before.size === 0n) await syncDir(path.dirname(file));
  return appended;
}
