import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Conversation, describeIssues, type ConversationListEntry, type ConversationSummary } from '@contract';
import { writeFileAtomic } from '../fs/atomic-write';
import { applyJournal, journalText, type ConversationJournal } from './conversation-journal';
import { findMatch } from './search-match';
import { errorMessage } from '@contract/error-message';

/** Another process (the desktop app and `oi` share the folder) may still be writing a younger one. */
const STALE_TEMP_MS = 60_000;

/** Conversations as one JSON file each in `<dataDir>/conversations`, written atomically. */
export class ConversationStore {
  private readonly dir: string;
  private readonly workspacesDir: string;
  // Saves of one conversation are chained so two quick saves cannot reorder on disk.
  private readonly pending = new Map<string, Promise<void>>();
  /** A save waiting for the one being written: a newer save replaces its content and shares its promise. */
  private readonly queued = new Map<string, { snapshot: string; written: Promise<void> }>();
  /** Conversations whose journal this process writes (conversation-journal.ts): their saves go through it. */
  private readonly journalled = new Map<string, ConversationJournal>();
  /** Conversations read with a journal applied: their next save holds those items, and then removes the journal. */
  private readonly recovered = new Set<string>();

  constructor(
    dataDir: string,
    private readonly defaultWorkspaceRoot: () => string | null,
  ) {
    this.dir = path.join(dataDir, 'conversations');
    this.workspacesDir = path.join(dataDir, 'workspaces');
  }

  /**
   * A new conversation; `items` fills it (an import), otherwise it starts empty. It works in
   * `workspace` when given (a folder the caller has checked), else in the shared workspace root when
   * one is set, else in a new folder of its own that the app manages.
   */
  async create(title?: string, items: Conversation['items'] = [], workspace?: string): Promise<Conversation> {
    const id = randomUUID();
    const now = new Date().toISOString();
    workspace ??= this.defaultWorkspaceRoot() ?? this.managedWorkspaceOf(id);
    const madeFolder = await mkdir(workspace, { recursive: true });
    const conv: Conversation = {
      version: 1,
      id,
      title: title?.trim() || 'New conversation',
      createdAt: now,
      updatedAt: now,
      workspace,
      items,
      usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
      autoRun: false,
    };
    try {
      await this.save(conv);
    } catch (err) {
      // A conversation that could not be saved leaves no folder behind.
      if (madeFolder) await rm(madeFolder, { recursive: true, force: true }).catch(() => undefined);
      throw err;
    }
    return conv;
  }

  async get(id: string): Promise<Conversation> {
    return this.read(id, true);
  }

  /** The file's conversation, with its journal applied when `journal` says one may be there. */
  private async read(id: string, journal: boolean): Promise<Conversation> {
    const file = this.fileOf(id);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`no conversation with id ${id}`, { cause: err });
      throw err;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw new Error(`conversation file ${file} is not valid JSON: ${errorMessage(err)}`, { cause: err });
    }
    if (journal) {
      // Without the zeros written ahead of its lines (conversation-journal.ts): a journal of zeros alone holds nothing.
      const lines = journalText(await readFile(this.journalOf(id), 'utf8').catch(() => ''));
      const applied = lines.trim() ? Conversation.safeParse(applyJournal(json, lines)) : null;
      // A journal that would not give a valid conversation is left out: the file alone still counts.
      if (applied?.success) {
        this.recovered.add(id);
        return applied.data;
      }
    }
    const parsed = Conversation.safeParse(json);
    if (!parsed.success) throw new Error(`conversation file ${file} does not match the schema: ${describeIssues(parsed.error.issues)}`);
    return parsed.data;
  }

  /**
   * The conversations that have at least one item, newest first: one made for a new chat (or for its
   * attachments) is listed once its first message is sent. With a query, only those that match, each
   * with the text around its first match.
   */
  async list(query?: string): Promise<ConversationListEntry[]> {
    await mkdir(this.dir, { recursive: true });
    const all = await readdir(this.dir);
    await this.removeStaleTempFiles(all);
    const names = all.filter((n) => n.endsWith('.json') && !n.startsWith('.'));
    const journals = new Set(all.filter((n) => n.endsWith('.journal')));
    const entries: ConversationListEntry[] = [];
    const needle = query?.trim();
    for (const name of names) {
      try {
        const id = name.slice(0, -'.json'.length);
        const conv = await this.read(id, journals.has(`${id}.journal`));
        if (conv.items.length === 0) continue;
        const summary = summaryOf(conv);
        if (!needle) {
          entries.push(summary);
          continue;
        }
        const match = findMatch(conv, needle);
        if (match) entries.push({ ...summary, match });
      } catch (err) {
        // One unreadable file must not hide the others; it stays on disk untouched for the user.
        console.warn(`skipping conversation ${name}: ${errorMessage(err)}`);
      }
    }
    return entries.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }

  /**
   * Resolves once a write holding this state (or a newer one) is on disk. While a journal is open for
   * the conversation (an agent turn, oi mcp), the save is recorded in it: what changed, one append and
   * one fdatasync (conversation-journal.ts). Otherwise the file is written whole.
   */
  save(conv: Conversation): Promise<void> {
    const journal = this.journalled.get(conv.id);
    return journal ? journal.record(conv) : this.saveWhole(conv);
  }

  /**
   * Writes the file whole, atomically. Saves that come while one is being written are merged: only
   * the newest of them is written next (each write is a temp file, two fsyncs and a rename: tens of
   * milliseconds on a busy disk).
   */
  saveWhole(conv: Conversation): Promise<void> {
    const snapshot = JSON.stringify(conv);
    const waiting = this.queued.get(conv.id);
    if (waiting) {
      waiting.snapshot = snapshot;
      return waiting.written;
    }
    const previous = this.pending.get(conv.id) ?? Promise.resolve();
    const slot = { snapshot, written: Promise.resolve() };
    slot.written = previous
      .catch(() => undefined)
      .then(async () => {
        // From here on a newer save queues behind this write instead of changing what it writes.
        if (this.queued.get(conv.id) === slot) this.queued.delete(conv.id);
        await mkdir(this.dir, { recursive: true });
        await writeFileAtomic(this.fileOf(conv.id), slot.snapshot);
        // The file now holds what a journal left by an ended writer added, and maybe changes since.
        if (this.recovered.delete(conv.id) && !this.journalled.has(conv.id)) await this.removeJournal(conv.id);
      });
    this.queued.set(conv.id, slot);
    this.pending.set(conv.id, slot.written);
    return slot.written;
  }

  async delete(id: string): Promise<void> {
    await this.pending.get(id)?.catch(() => undefined);
    await this.removeJournal(id);
    try {
      await unlink(this.fileOf(id));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`no conversation with id ${id}`, { cause: err });
      throw err;
    }
  }

  /** Where a conversation's added items are journalled before its file is written whole (conversation-journal.ts). */
  journalOf(id: string): string {
    return path.join(this.dir, `${checkedId(id)}.journal`);
  }

  /** This process writes the conversation's journal (its saves go through it), or stopped (null). */
  journalling(id: string, journal: ConversationJournal | null): void {
    if (journal) this.journalled.set(id, journal);
    else this.journalled.delete(id);
  }

  /** The journal this process has open for the conversation, if any. */
  journalFor(id: string): ConversationJournal | undefined {
    return this.journalled.get(id);
  }

  async removeJournal(id: string): Promise<void> {
    await unlink(this.journalOf(id)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }

  /** The folder the app makes for a conversation when no other is chosen: its own to delete. */
  managedWorkspaceOf(id: string): string {
    return path.join(this.workspacesDir, checkedId(id));
  }

  /** A process killed mid-save leaves its temp file behind; one untouched for a while is garbage. */
  private async removeStaleTempFiles(names: string[]): Promise<void> {
    const cutoff = Date.now() - STALE_TEMP_MS;
    for (const name of names) {
      if (!name.startsWith('.') || !name.endsWith('.tmp')) continue;
      const file = path.join(this.dir, name);
      const info = await stat(file).catch(() => null);
      if (info && info.mtimeMs < cutoff) await unlink(file).catch(() => undefined);
    }
  }

  private fileOf(id: string): string {
    return path.join(this.dir, `${checkedId(id)}.json`);
  }
}

function checkedId(id: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new Error(`invalid conversation id ${JSON.stringify(id)}`);
  return id;
}

/** What lists and events carry of a conversation (the MCP client's name only on a conversation oi mcp recorded). */
export function summaryOf(conv: Conversation): ConversationSummary {
  const { id, title, createdAt, updatedAt, workspace, mcpClient, scheduled, parent } = conv;
  return {
    id,
    title,
    createdAt,
    updatedAt,
    workspace,
    ...(mcpClient !== undefined ? { mcpClient } : {}),
    ...(scheduled !== undefined ? { scheduled } : {}),
    ...(parent !== undefined ? { parent } : {}),
  };
}
