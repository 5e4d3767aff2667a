import { constants, fdatasyncSync, fstatSync, readSync, writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Conversation, ConversationItem } from '@contract';

// Saves of a conversation that grows one item at a time (oi mcp's runs, an agent turn's steps),
// written incrementally (issue 37). A whole-file save is a new temp file, two fsyncs and a rename: 3–11 ms on this
// machine's disk, most of a warm `execute` round trip. Here each added item is appended to
// `<id>.journal` beside the conversation's file and made durable with one fdatasync of a file that
// already exists (a fraction of a millisecond), and the whole file is written later, behind it. So an item is on disk before its caller answers, as when the whole save was awaited:
// a crash at any moment keeps it, and readers apply the journal to the file (applyJournal, in
// ConversationStore.get), so they see it at once. Once a whole write holds everything journalled,
// the journal is emptied; close() writes the last state whole and removes it.
//
// The file is written ahead of its lines with zeros (AHEAD_BYTES), and each line written over them:
// on ext4 (and other journalling file systems) an fdatasync of a file whose size grew must commit the
// file system's own journal, which waits behind every other process's metadata, while one that only
// overwrote allocated blocks flushes the data alone (issue 37: 0.72–0.8× the sync time on an idle disk
// here). So a reader stops a line at a NUL as at a newline, and the zeros read as nothing.

/** Whole writes: after this many journalled items, or once none came for this long. */
const COMPACT_LINES = 50;
const COMPACT_IDLE_MS = 1000;
/** Zeros written after a line that did not fit in what the file holds already: room for the next lines. */
export const AHEAD_BYTES = 64 * 1024;

/**
 * One journal line: an item added to the conversation (`item`, oi mcp) or the items a save changed or
 * added (`items`, record()), with the conversation's other fields then (`head`) when they changed, and
 * its updatedAt. A line is one write: a crash mid-append tears it, and a torn line is skipped whole.
 */
interface JournalLine {
  item?: ConversationItem;
  items?: ConversationItem[];
  head?: Omit<Conversation, 'items'>;
  updatedAt: string;
}

/** What a journal needs of the store (ConversationStore has it; named here so neither file imports the other's class). */
export interface JournalStore {
  /** Writes the conversation whole (atomic), whatever journal it has. */
  saveWhole(conv: Conversation): Promise<void>;
  journalOf(id: string): string;
  /** This journal now takes the conversation's saves (`store.save` records through it), or none does. */
  journalling(id: string, journal: ConversationJournal | null): void;
  removeJournal(id: string): Promise<void>;
}

export class ConversationJournal {
  private handle: FileHandle | null = null;
  /** Where the next line goes in the open journal, and how long the file is (lines, then zeros). */
  private end = 0;
  private size = 0;
  /** Journal operations (appends, emptying) one after the other, so emptying never drops a newer line. */
  private queue: Promise<unknown> = Promise.resolve();
  private appended = 0;
  /** Items journalled since the last whole write was started. */
  private sinceWhole = 0;
  private timer: NodeJS.Timeout | undefined;
  private lastSave: Promise<void> = Promise.resolve();
  private readonly file: string;
  /** What record() has made durable: each item's JSON by id, in the conversation's order, and the other fields' JSON. */
  private written: Map<string, string> | null = null;
  private writtenHead = '';
  /** The conversation whole writes take: the newest one recorded. */
  private latest: Conversation;

  private readonly compactLines: number;
  private readonly compactIdleMs: number;
  private readonly syncOnCaller: boolean;

  /**
   * `syncOnCaller`: each line's fdatasync on the calling thread rather than libuv's pool, for a
   * process whose caller waits for it with nothing else to do (`oi mcp` over stdio, one client): a
   * trip through the pool wakes a worker and then main, two waits for a core on the call's path
   * (issue 37). Not in the desktop app, whose main thread must not stop for the disk.
   */
  constructor(
    private readonly store: JournalStore,
    private readonly conv: Conversation,
    options: { compactLines?: number; compactIdleMs?: number; syncOnCaller?: boolean | undefined } = {},
  ) {
    this.compactLines = options.compactLines ?? COMPACT_LINES;
    this.compactIdleMs = options.compactIdleMs ?? COMPACT_IDLE_MS;
    this.syncOnCaller = options.syncOnCaller ?? false;
    this.file = store.journalOf(conv.id);
    this.latest = conv;
    store.journalling(conv.id, this);
  }

  /**
   * A save of the conversation (ConversationStore.save while this journal is open): resolves once its
   * state is on disk, as a whole save's would. The first is written whole; after it, the items that
   * changed or were added since, with the other fields when they changed, are appended as one line and
   * fdatasynced. A save that removed or reordered items is written whole, and the journal emptied, so
   * no line can bring back what was removed. What is written is taken when this is called.
   */
  async record(conv: Conversation): Promise<void> {
    this.latest = conv;
    const head = headOf(conv);
    const items = conv.items.map((item) => [item.id, JSON.stringify(item)] as const);
    const before = this.written;
    if (!before || !keepsOrder(before, items)) {
      this.written = new Map(items);
      this.writtenHead = head;
      clearTimeout(this.timer);
      this.sinceWhole = 0;
      try {
        // Held in the journal's queue: no line lands between the whole write and the emptying.
        await this.serially(async () => {
          await this.store.saveWhole(conv);
          // A journal left by an ended writer is held in the file now too (it was read with it applied).
          if (this.handle) await this.empty();
          else await this.store.removeJournal(conv.id);
        });
      } catch (err) {
        this.written = null; // not on disk: the next save is whole again
        throw err;
      }
      return;
    }
    const changed = items.filter(([id, json]) => before.get(id) !== json);
    if (changed.length === 0 && head === this.writtenHead) return;
    for (const [id, json] of changed) before.set(id, json);
    const headPart = head === this.writtenHead ? '' : `,"head":${head}`;
    this.writtenHead = head;
    const line = `{"items":[${changed.map(([, json]) => json).join(',')}]${headPart},"updatedAt":${JSON.stringify(conv.updatedAt)}}\n`;
    await this.appendLine(line, conv);
  }

  /**
   * `item` was just added to the conversation (whose file exists already): resolves once it is on
   * disk in the journal. The whole file is written later, after COMPACT_LINES items or once the
   * conversation has been still for COMPACT_IDLE_MS (each whole write costs a serialisation of the
   * whole conversation as well as the disk's time), or at close(). Where the journal cannot be
   * written (a full disk), the whole save is awaited instead, and its failure thrown, as before.
   */
  async add(item: ConversationItem): Promise<void> {
    // The item is serialised once, for the line and for what was written (as JSON.stringify of a JournalLine would give).
    const json = JSON.stringify(item);
    this.written?.set(item.id, json);
    await this.appendLine(`{"item":${json},"updatedAt":${JSON.stringify(this.conv.updatedAt)}}\n`, this.conv);
  }

  /** Appends a line and makes it durable; where it cannot be (a full disk), the whole save is awaited instead. */
  private async appendLine(text: string, conv: Conversation): Promise<void> {
    this.appended++;
    try {
      await this.serially(() => this.append(text));
    } catch {
      await this.store.saveWhole(conv);
      return;
    }
    clearTimeout(this.timer);
    if (++this.sinceWhole >= this.compactLines) this.compact();
    else this.timer = setTimeout(() => this.compact(), this.compactIdleMs).unref();
  }

  /** Writes the conversation whole and removes the journal; a failed write keeps the journal for readers. */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    await this.lastSave;
    try {
      await this.store.saveWhole(this.latest);
    } finally {
      this.store.journalling(this.conv.id, null);
    }
    await this.serially(async () => {
      await this.handle?.close();
      this.handle = null;
      await this.store.removeJournal(this.conv.id);
    });
  }

  /** The whole file written behind, then the journal emptied if nothing was added meanwhile. */
  private compact(): void {
    clearTimeout(this.timer);
    this.sinceWhole = 0;
    // Begun on the next turn of the event loop: the caller whose line made it due answers first (the
    // whole conversation's serialisation was done before `oi mcp`'s reply, one call in 50; issue 37).
    this.lastSave = this.lastSave
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => {
        // The snapshot holds every item added so far (they are in the conversation before add() is called).
        const upTo = this.appended;
        return this.store.saveWhole(this.latest).then(
          () => this.serially(async () => (this.appended === upTo ? await this.empty() : undefined)).catch(() => undefined),
          // The file stays behind; the journal keeps the items, and the next compaction (or close) catches up.
          () => undefined,
        );
      });
  }

  private serially<T>(op: () => Promise<T>): Promise<T> {
    const next = this.queue.then(op, op);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The journal holds nothing (its lines are in the file written whole): the next line goes at its start. */
  private async empty(): Promise<void> {
    if (!this.handle) return;
    await this.handle.truncate(0);
    this.end = 0;
    this.size = 0;
  }

  private async append(text: string): Promise<void> {
    let lead = '';
    if (!this.handle) {
      // Not O_APPEND: lines are written at `end`, over the zeros written ahead of them.
      const handle = await open(this.file, constants.O_RDWR | constants.O_CREAT, 0o600);
      try {
        // A journal already there (another writer's): lines go after its last byte that is not a zero,
        // on a line of their own, so neither a torn line nor its zeros can swallow them.
        this.size = (await handle.stat()).size;
        this.end = this.size > 0 ? dataEnd(handle.fd, this.size) : 0;
        if (this.end > 0) lead = '\n';
        // A new file: its name must be on disk too before a line in it counts.
        await handle.sync();
        await syncFolder(path.dirname(this.file));
      } catch (err) {
        await handle.close();
        throw err;
      }
      this.handle = handle;
    }
    // A line of a cell is a few hundred bytes into the page cache: written here, not through the
    // thread pool, whose every trip wakes a worker and then main (issue 37: one trip less per run).
    // The sync, which waits for the disk, stays off main's thread.
    let bytes = Buffer.from(lead + text);
    const length = bytes.length;
    if (this.end + length > this.size) {
      // Past the zeros: the line and the next AHEAD_BYTES of zeros in one write, so this sync commits
      // the new size once for the lines that follow.
      const grown = Buffer.alloc(length + AHEAD_BYTES);
      bytes.copy(grown);
      bytes = grown;
      this.size = this.end + grown.length;
    }
    for (let done = 0; done < bytes.length;) done += writeSync(this.handle.fd, bytes, done, bytes.length - done, this.end + done);
    this.end += length;
    if (this.syncOnCaller) fdatasyncSync(this.handle.fd);
    else await this.handle.datasync();
    // Another process (the desktop app beside `oi`) may have written the conversation whole and removed
    // this journal: the line is then in a file no reader opens. Write the whole state now, so it is on
    // disk where readers look (last writer wins, as with any two writers), and start a new journal.
    // fstat on the open descriptor: about a microsecond, no trip through libuv's pool.
    if (fstatSync(this.handle.fd).nlink === 0) {
      await this.handle.close();
      this.handle = null;
      this.written = null;
      await this.store.saveWhole(this.latest);
    }
  }
}

/** Where a journal's data ends: after its last byte that is not a zero (read backwards, in blocks). */
function dataEnd(fd: number, size: number): number {
  const block = Buffer.alloc(64 * 1024);
  for (let end = size; end > 0;) {
    const start = Math.max(0, end - block.length);
    const read = readSync(fd, block, 0, end - start, start);
    for (let i = read - 1; i >= 0; i--) if (block[i] !== 0) return start + i + 1;
    end = start;
  }
  return 0;
}

/** The conversation's fields but its items, as JSON. */
function headOf(conv: Conversation): string {
  const { items: _items, ...head } = conv;
  return JSON.stringify(head);
}

/** The items are those written, in the same order, maybe with more after them (nothing removed or moved). */
function keepsOrder(written: Map<string, string>, items: ReadonlyArray<readonly [string, string]>): boolean {
  if (items.length < written.size) return false;
  let i = 0;
  for (const id of written.keys()) if (items[i++]?.[0] !== id) return false;
  return true;
}

async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch {
    // Folder fsync is Linux's way of making a new name durable; other platforms refuse it, harmlessly.
  } finally {
    await handle.close();
  }
}

/**
 * The conversation (as parsed from its file, not yet checked) with the journal's items applied: an
 * item whose id is there already is replaced, a new one added, so a line the file already holds
 * changes nothing. A line that is not whole (a crash mid-append) or not an item is skipped, and so
 * are the zeros after the last line.
 */
export function applyJournal(raw: unknown, journal: string): unknown {
  if (!raw || typeof raw !== 'object' || !Array.isArray((raw as { items?: unknown }).items)) return raw;
  let conv = raw as { items: unknown[]; updatedAt?: unknown; id?: unknown };
  const items = [...conv.items];
  const at = new Map(items.map((item, i) => [(item as { id?: unknown } | null)?.id, i]));
  let updatedAt = conv.updatedAt;
  // A NUL ends a line too (JSON.stringify writes none in a line): the zeros written ahead of the lines,
  // and those a crash left before a later writer's lines.
  for (const text of journal.split(/[\n\0]+/)) {
    const line = parseLine(text);
    if (!line) continue;
    // The file's id stays: a line speaks only of this conversation.
    if (line.head) conv = { ...conv, ...line.head, id: conv.id, items: conv.items };
    for (const item of line.item ? [line.item] : (line.items ?? [])) {
      const i = at.get(item.id);
      if (i !== undefined) items[i] = item;
      else at.set(item.id, items.push(item) - 1);
    }
    if (typeof updatedAt !== 'string' || line.updatedAt > updatedAt) updatedAt = line.updatedAt;
  }
  return { ...conv, items, updatedAt };
}

/** A journal's text without the zeros after its last line. */
export function journalText(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0) end--;
  return end === text.length ? text : text.slice(0, end);
}

function parseLine(text: string): JournalLine | null {
  if (!text.trim()) return null;
  try {
    const line = JSON.parse(text) as Partial<JournalLine> | null;
    if (!line || typeof line.updatedAt !== 'string') return null;
    const items = line.item ? [line.item] : line.items;
    if (!Array.isArray(items) || !items.every((i) => typeof (i as { id?: unknown } | null)?.id === 'string')) return null;
    if (line.head !== undefined && (typeof line.head !== 'object' || line.head === null || Array.isArray(line.head))) return null;
    return line as JournalLine;
  } catch {
    return null;
  }
}
