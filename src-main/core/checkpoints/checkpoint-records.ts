import { realpathSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write';

/**
 * Each conversation's list of checkpoints (`<data>/checkpoints/<conversation>.json`): the trees taken
 * before and after each cell, in the store of the conversation's workspace folder.
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

export class CheckpointRecords {
  constructor(private readonly dir: string) {}

  private file(conversationId: string): string {
    if (!/^[\w-]+$/.test(conversationId)) throw new Error(`not a conversation id: ${conversationId}`);
    return path.join(this.dir, `${conversationId}.json`);
  }

  async load(conversationId: string): Promise<ConversationRecord | null> {
    const text = await readFile(this.file(conversationId), 'utf8').catch(() => null);
    if (!text) return null;
    try {
      const parsed = JSON.parse(text) as ConversationRecord;
      return parsed.version === 1 && Array.isArray(parsed.entries) ? parsed : null;
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
    await writeFileAtomic(this.file(conversationId), JSON.stringify(record));
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
    await rm(this.file(conversationId), { force: true });
  }
}

export function canonical(workspace: string): string {
  try {
    return realpathSync(workspace);
  } catch {
    return path.resolve(workspace);
  }
}
