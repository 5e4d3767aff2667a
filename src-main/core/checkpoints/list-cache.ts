import { lstatSync, type BigIntStats } from 'node:fs';
import { SETTLED_MS } from '../fs/entry-identity';
import type { EntryTexts } from './list-journal';

// A checkpoint list is read before and after every cell (checkpoint-service.ts): its file and its
// log, each an open, a stat, a read and a close through libuv's thread pool, then parsed and its lines
// replayed — on the step's path, as the store is locked meanwhile, and growing with the conversation
// (issue 37). So the last state of each list read or written here is kept with the identity of both
// files (lstat: device, inode, size, mtime, ctime), and a load whose files still have that identity
// takes the kept state instead of reading. The files only change by an append to the log (its size
// grows) or a whole write renamed over the list (a new inode, the log removed), whoever writes them —
// another process's collector included. Two limits keep the comparison sound:
// - a state read from disk is kept only when both files were settled (unchanged for SETTLED_MS)
//   when their identity was taken, before the read (as fs/entry-identity.ts): a whole write in the
//   same clock tick could reuse an inode with the same size. A list this process wrote whole is read
//   back once (every MAX_LINES saves) and kept when it is the text written;
// - a state this process appended is kept only when the log it appended to was the kept one (inode
//   and size, through the handle it wrote with) and grew by exactly the line: no other line landed.

/** One file's identity, or '-' when it is absent. */
function identity(st: BigIntStats | undefined): string {
  return st ? `${st.dev}:${st.ino}:${st.mode}:${st.size}:${st.mtimeNs}:${st.ctimeNs}` : '-';
}

export interface FilesIdentity {
  list: string;
  log: string;
  /** The log's inode (null when absent) and size. */
  logIno: bigint | null;
  logSize: bigint;
  /** Both unchanged for SETTLED_MS when taken. */
  settled: boolean;
}

export function filesIdentity(list: string, log: string, now: number): FilesIdentity | null {
  const settledBefore = BigInt(Math.floor(now - SETTLED_MS)) * 1_000_000n;
  try {
    const a = lstatSync(list, { bigint: true, throwIfNoEntry: false });
    const b = lstatSync(log, { bigint: true, throwIfNoEntry: false });
    const settled = [a, b].every((st) => !st || (st.ctimeNs <= settledBefore && st.mtimeNs <= settledBefore));
    return { list: identity(a), log: identity(b), logIno: b?.ino ?? null, logSize: b?.size ?? 0n, settled };
  } catch {
    return null;
  }
}

/** A list's state as last read or written here: the record's JSON and what the next save appends to. */
export interface KeptList {
  list: string;
  log: string;
  /** The log's inode and size, to check an append against. */
  logIno: bigint | null;
  logSize: bigint;
  record: string;
  /** The record's entries' texts (list-journal.ts), shared read-only with the loads that take this state. */
  texts: EntryTexts;
  base: string;
  lines: number;
}

/** Kept lists by conversation; the oldest goes first past KEPT (the desktop app's open conversations). */
const KEPT = 64;

export class ListCache {
  private readonly kept = new Map<string, KeptList>();

  get(id: string, files: FilesIdentity): KeptList | null {
    const kept = this.kept.get(id);
    return kept && kept.list === files.list && kept.log === files.log ? kept : null;
  }

  /**
   * After a read: kept when the files were settled before it, or (`ours`) when what was read back is
   * what this process just wrote whole.
   */
  fromRead(id: string, files: FilesIdentity, state: Pick<KeptList, 'record' | 'texts' | 'base' | 'lines'>, ours = false): void {
    if (!files.settled && !ours) return void this.kept.delete(id);
    this.put(id, { ...state, list: files.list, log: files.log, logIno: files.logIno, logSize: files.logSize });
  }

  /**
   * After this process appended `bytes` to the log: kept when the log it wrote was the kept state's
   * (`before`: inode and size through its handle before the write) and the list is unchanged.
   */
  afterAppend(
    id: string,
    listPath: string,
    before: { ino: bigint; size: bigint },
    after: BigIntStats,
    bytes: number,
    state: Pick<KeptList, 'record' | 'texts' | 'lines'>,
  ): void {
    const kept = this.kept.get(id);
    this.kept.delete(id);
    if (!kept) return;
    const sameLog = kept.logIno === null ? before.size === 0n : kept.logIno === before.ino && kept.logSize === before.size;
    if (!sameLog || after.ino !== before.ino || after.size !== before.size + BigInt(bytes)) return;
    let list: string;
    try {
      list = identity(lstatSync(listPath, { bigint: true, throwIfNoEntry: false }));
    } catch {
      return;
    }
    if (list !== kept.list) return;
    this.put(id, { ...kept, ...state, log: identity(after), logIno: after.ino, logSize: after.size });
  }

  forget(id: string): void {
    this.kept.delete(id);
  }

  private put(id: string, state: KeptList): void {
    this.kept.delete(id);
    this.kept.set(id, state);
    if (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value as string);
  }
}
