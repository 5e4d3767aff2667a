import { realpathSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write';
import { filesIdentity, ListCache } from './list-cache';
import {
  appendLine,
  applyChange,
  changeBetweenTexts,
  entryTexts,
  linesFor,
  listHash,
  MAX_LINES,
  recordText,
  type EntryTexts,
} from './list-journal';

/**
 * Each conversation's list of checkpoints (`<data>/checkpoints/<conversation>.json`): the trees taken
 * before and after each cell, in the store of the conversation's workspace folder. A list read here and
 * then saved is saved as one appended line of what changed (`<conversation>.log`, list-journal.ts) —
 * a cell's before and after cost an fdatasync each, not two atomic rewrites — and written whole when
 * it is new, moved to another folder, or its log has grown long. The last state of each list is kept
 * while its files keep their identity (list-cache.ts), so a cell's before and after read nothing.
 */

export interface CheckpointEntry {
  cellId: string;
  before: string;
  after: string | null;
  /** Permission bits the trees cannot hold (permissions.ts): a manifest blob, null or absent for none. */
  beforeModes?: string | null;
  afterModes?: string | null;
  /** Paths present but not kept (ignored-paths.ts): a blob of fingerprints, null or absent for none. */
  beforeUnkept?: string | null;
  afterUnkept?: string | null;
  /** Big files stored as chunks (chunked-files.ts): a holder tree, null or absent for none. */
  beforeChunks?: string | null;
  afterChunks?: string | null;
  createdAt: string;
  /** Bytes the snapshots around this cell added to the store (new file contents), for the budget. */
  bytes: number;
  changed: number;
}

export interface ConversationRecord {
  version: 1;
  workspace: string;
  entries: CheckpointEntry[];
}

/** A list as it is on disk, for each record load() returned: what the next save appends to. */
interface OnDisk {
  base: string;
  workspace: string;
  /** Its entries' texts (list-journal.ts): what the next save compares with, not parsed and serialised again. */
  entries: EntryTexts;
  lines: number;
}

export class CheckpointRecords {
  private readonly onDisk = new WeakMap<ConversationRecord, OnDisk>();
  private readonly cache = new ListCache();
  /** Lists read from disk (not from the kept state): what tests of the cache look at. */
  reads = 0;

  constructor(private readonly dir: string) {}

  private log(conversationId: string): string {
    return this.file(conversationId).slice(0, -'.json'.length) + '.log';
  }

  private file(conversationId: string): string {
    if (!/^[\w-]+$/.test(conversationId)) throw new Error(`not a conversation id: ${conversationId}`);
    return path.join(this.dir, `${conversationId}.json`);
  }

  async load(conversationId: string): Promise<ConversationRecord | null> {
    // Taken before the files are read: a change while they are read makes the next identity differ.
    const files = filesIdentity(this.file(conversationId), this.log(conversationId), Date.now());
    const kept = files && this.cache.get(conversationId, files);
    if (kept) {
      const record = JSON.parse(kept.record) as ConversationRecord;
      this.onDisk.set(record, { base: kept.base, workspace: record.workspace, entries: kept.texts, lines: kept.lines });
      return record;
    }
    this.reads++;
    const text = await readFile(this.file(conversationId), 'utf8').catch(() => null);
    if (!text) return null;
    try {
      const parsed = JSON.parse(text) as ConversationRecord;
      if (parsed.version !== 1 || !Array.isArray(parsed.entries)) return null;
      const base = listHash(text);
      const lines = linesFor<CheckpointEntry>(await readFile(this.log(conversationId), 'utf8').catch(() => ''), base);
      for (const line of lines) parsed.entries = applyChange(parsed.entries, line);
      const texts = entryTexts(parsed.entries);
      this.onDisk.set(parsed, { base, workspace: parsed.workspace, entries: texts, lines: lines.length });
      if (files) this.cache.fromRead(conversationId, files, { record: recordText(parsed, texts), texts, base, lines: lines.length });
      return parsed;
    } catch {
      return null;
    }
  }

  /** The conversation's list for `workspace`, or a new one. */
  async forWorkspace(conversationId: string, workspace: string): Promise<ConversationRecord> {
    const found = await this.load(conversationId);
    // A conversation moved to another folder starts a new list: old trees belong to the old folder.
    if (found && found.workspace === canonical(workspace)) return found;
    return { version: 1, workspace: canonical(workspace), entries: [] };
  }

  async save(conversationId: string, record: ConversationRecord): Promise<void> {
    const disk = this.onDisk.get(record);
    if (disk && disk.workspace === record.workspace && disk.lines < MAX_LINES) {
      // The new state's entries serialised once: compared with the last state's texts, then kept as the next save's.
      const entries = entryTexts(record.entries);
      const change = changeBetweenTexts(disk.entries, record.entries, entries);
      if (change) {
        if (change.drop.length > 0 || change.put.length > 0) {
          const appended = await appendLine(this.log(conversationId), { base: disk.base, ...change }).catch((err: unknown) => {
            this.cache.forget(conversationId);
            throw err;
          });
          const state = { record: recordText(record, entries), texts: entries, lines: disk.lines + 1 };
          this.cache.afterAppend(conversationId, this.file(conversationId), appended.before, appended.after, appended.bytes, state);
        }
        this.onDisk.set(record, { ...disk, entries, lines: disk.lines + 1 });
        return;
      }
    }
    this.cache.forget(conversationId); // read again once settled (list-cache.ts)
    const text = JSON.stringify(record);
    await writeFileAtomic(this.file(conversationId), text);
    // The old lines name the old text's hash, so they are inert from here even if this removal is lost.
    await rm(this.log(conversationId), { force: true });
    const base = listHash(text);
    const texts = entryTexts(record.entries);
    this.onDisk.set(record, { base, workspace: record.workspace, entries: texts, lines: 0 });
    // Read back once, after the files' identity is taken: kept only if the list is still this text.
    const files = filesIdentity(this.file(conversationId), this.log(conversationId), Date.now());
    if (files?.log === '-' && (await readFile(this.file(conversationId), 'utf8').catch(() => null)) === text)
      this.cache.fromRead(conversationId, files, { record: text, texts, base, lines: 0 }, true);
  }

  /** Every conversation's list that uses `workspace`. */
  async sharing(workspace: string): Promise<Array<{ id: string; record: ConversationRecord }>> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const out: Array<{ id: string; record: ConversationRecord }> = [];
    for (const name of names) {
      if (!name.endsWith('.json') || name.startsWith('.')) continue;
      const id = name.slice(0, -5);
      const record = await this.load(id);
      if (record?.workspace === canonical(workspace)) out.push({ id, record });
    }
    return out;
  }

  async remove(conversationId: string): Promise<void> {
    this.cache.forget(conversationId);
    await rm(this.file(conversationId), { force: true });
    await rm(this.log(conversationId), { force: true });
  }
}

export function canonical(workspace: string): string {
  try {
    return realpathSync(workspace);
  } catch {
    return path.resolve(workspace);
  }
}
