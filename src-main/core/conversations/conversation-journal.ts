import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Conversation, ConversationItem } from '@contract';

// Saves of a conversation that grows one item at a time (oi mcp's runs), written incrementally
// (issue 37). A whole-file save is a new temp file, two fsyncs and a rename: 3–11 ms on this
// machine's disk, most of a warm `execute` round trip. Here each added item is appended to
// `<id>.journal` beside the conversation's file and made durable with one fdatasync of a file that
// already exists (a fraction of a millisecond), and the whole file is written later, behind it. So an item is on disk before its caller answers, as when the whole save was awaited:
// a crash at any moment keeps it, and readers apply the journal to the file (applyJournal, in
// ConversationStore.get), so they see it at once. Once a whole write holds everything journalled,
// the journal is emptied; close() writes the last state whole and removes it.

/** Whole writes: after this many journalled items, or once none came for this long. */
const COMPACT_LINES = 50;
const COMPACT_IDLE_MS = 1000;

/** One journal line: an item added to the conversation, and the conversation's updatedAt then. */
interface JournalLine {
  item: ConversationItem;
  updatedAt: string;
}

/** What a journal needs of the store (ConversationStore has it; named here so neither file imports the other's class). */
export interface JournalStore {
  save(conv: Conversation): Promise<void>;
  journalOf(id: string): string;
  journalling(id: string, on: boolean): void;
  removeJournal(id: string): Promise<void>;
}

export class ConversationJournal {
  private handle: FileHandle | null = null;
  /** Journal operations (appends, emptying) one after the other, so emptying never drops a newer line. */
  private queue: Promise<unknown> = Promise.resolve();
  private appended = 0;
  /** Items journalled since the last whole write was started. */
  private sinceWhole = 0;
  private timer: NodeJS.Timeout | undefined;
  private lastSave: Promise<void> = Promise.resolve();
  private readonly file: string;

  private readonly compactLines: number;
  private readonly compactIdleMs: number;

  constructor(
    private readonly store: JournalStore,
    private readonly conv: Conversation,
    options: { compactLines?: number; compactIdleMs?: number } = {},
  ) {
    this.compactLines = options.compactLines ?? COMPACT_LINES;
    this.compactIdleMs = options.compactIdleMs ?? COMPACT_IDLE_MS;
    this.file = store.journalOf(conv.id);
    store.journalling(conv.id, true);
  }

  /**
   * `item` was just added to the conversation (whose file exists already): resolves once it is on
   * disk in the journal. The whole file is written later, after COMPACT_LINES items or once the
   * conversation has been still for COMPACT_IDLE_MS (each whole write costs a serialisation of the
   * whole conversation as well as the disk's time), or at close(). Where the journal cannot be
   * written (a full disk), the whole save is awaited instead, and its failure thrown, as before.
   */
  async add(item: ConversationItem): Promise<void> {
    const line: JournalLine = { item, updatedAt: this.conv.updatedAt };
    this.appended++;
    try {
      await this.serially(() => this.append(`${JSON.stringify(line)}\n`));
    } catch {
      await this.store.save(this.conv);
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
      await this.store.save(this.conv);
    } finally {
      this.store.journalling(this.conv.id, false);
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
    this.lastSave = this.lastSave.then(() => {
      // The snapshot holds every item added so far (they are in the conversation before add() is called).
      const upTo = this.appended;
      return this.store.save(this.conv).then(
        () => this.serially(async () => (this.appended === upTo ? await this.handle?.truncate(0) : undefined)).catch(() => undefined),
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

  private async append(text: string): Promise<void> {
    if (!this.handle) {
      const handle = await open(this.file, 'a', 0o600);
      try {
        // A new file: its name must be on disk too before a line in it counts.
        await handle.sync();
        await syncFolder(path.dirname(this.file));
      } catch (err) {
        await handle.close();
        throw err;
      }
      this.handle = handle;
    }
    await this.handle.write(text);
    await this.handle.datasync();
  }
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
 * changes nothing. A line that is not whole (a crash mid-append) or not an item is skipped.
 */
export function applyJournal(raw: unknown, journal: string): unknown {
  if (!raw || typeof raw !== 'object' || !Array.isArray((raw as { items?: unknown }).items)) return raw;
  const conv = raw as { items: unknown[]; updatedAt?: unknown };
  const items = [...conv.items];
  let updatedAt = conv.updatedAt;
  for (const text of journal.split('\n')) {
    const line = parseLine(text);
    if (!line) continue;
    const at = items.findIndex((i) => (i as { id?: unknown } | null)?.id === line.item.id);
    if (at >= 0) items[at] = line.item;
    else items.push(line.item);
    if (typeof updatedAt !== 'string' || line.updatedAt > updatedAt) updatedAt = line.updatedAt;
  }
  return { ...conv, items, updatedAt };
}

function parseLine(text: string): JournalLine | null {
  if (!text.trim()) return null;
  try {
    const line = JSON.parse(text) as Partial<JournalLine> | null;
    if (!line || typeof line.updatedAt !== 'string' || !line.item || typeof (line.item as { id?: unknown }).id !== 'string') return null;
    return line as JournalLine;
  } catch {
    return null;
  }
}
