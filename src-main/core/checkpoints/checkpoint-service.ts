import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { CellChanges, FileDiff, Settings } from '@contract';
import { writeFileAtomic } from '../fs/atomic-write';
import { ChangeJournal } from './change-journal';
import { canonical, CheckpointRecords, type CheckpointEntry, type ConversationRecord } from './checkpoint-records';
import { MAX_LISTED, parseUnkept, unkeptChanges, type ScanLimits, type Unkept, type Unrestorable } from './ignored-paths';
import { GitObjects } from './git-objects';
import { applyRestore, keptAsIs, leftAsIs, planRestore, presentGitFolders, type CannotRestore, type RestoreOutcome } from './restore';
import { Snapshotter } from './snapshot';
import { mergeSkipped, type Skipped } from './workspace-scan';
import { storeBytes } from './store-size';
import { StoreAccess, type StoreLockOptions } from './store-lock';
import { applyPermissions, parseManifest } from './permissions';
import { changesBetween, fileDiffs } from './tree-changes';
import { chunkedSizes, chunkedWrites, readChunkIndex } from './chunked-files';

/**
 * Every run reversible (docs/checkpoints.md). Before each cell the workspace is recorded in a store in
 * the app's data folder (one git object store per workspace folder, shared by the conversations that
 * use it); after it, again, and the two trees tell what the cell changed. A rewind puts back the tree
 * taken before a cell — after listing files changed outside the app since, and after recording the
 * present state, so the rewind itself can be undone.
 */

export type { CheckpointEntry };

interface Store {
  objects: GitObjects;
  snapshotter: Snapshotter;
  root: string;
  /** One operation at a time, in this process and across those sharing the data folder (store-lock.ts). */
  access: StoreAccess;
}

type CheckpointSettings = Pick<
  Settings,
  'checkpointMaxFileMb' | 'checkpointIgnoredMaxKb' | 'checkpointBudgetMb' | 'checkpointKeepDays' | 'checkpointStoreMaxMb'
>;

export interface CheckpointServiceOptions {
  dataDir: string;
  settings: () => CheckpointSettings;
  /** Where changes are learnt without a walk; the process's shared one unless given (false: always walk). */
  journal?: ChangeJournal | false;
  /** Waiting for another process's operation on a store (store-lock.ts). */
  lock?: StoreLockOptions;
}

/** A restore cut short (the app killed) is finished from this file the next time the store is used. */
const JOURNAL = 'oi-restore-journal.json';

export type { CannotRestore, RestoreOutcome };

export class CheckpointService {
  private readonly stores = new Map<string, Store>();
  private readonly dir: string;
  private readonly records: CheckpointRecords;

  private readonly journal: ChangeJournal | null;

  constructor(private readonly opts: CheckpointServiceOptions) {
    this.dir = path.join(opts.dataDir, 'checkpoints');
    this.records = new CheckpointRecords(this.dir);
    this.journal = opts.journal === false ? null : (opts.journal ?? ChangeJournal.shared());
  }

  /** Gets ready for the first checkpoint in the background (the change journal's thread starts). */
  prepare(): void {
    this.journal?.prepare();
  }

  /** Records the workspace before a cell runs; returns what it had to leave out. */
  before(conv: { id: string; workspace: string }, cellId: string): Promise<Skipped[]> {
    return this.withStore(conv.workspace, async (store) => {
      const shot = await store.snapshotter.take(this.limits());
      const record = await this.records.forWorkspace(conv.id, conv.workspace);
      record.entries = record.entries.filter((e) => e.cellId !== cellId);
      record.entries.push({
        cellId,
        before: shot.tree,
        beforeModes: shot.modes,
        beforeUnkept: shot.unkept,
        beforeChunks: shot.chunks,
        after: null,
        createdAt: new Date().toISOString(),
        bytes: shot.bytesStored,
        changed: 0,
      });
      await this.records.save(conv.id, record);
      return shot.skipped;
    });
  }

  /** Records the workspace after the cell and says what it changed. */
  async after(conv: { id: string; workspace: string }, cellId: string, skippedBefore: Skipped[]): Promise<CellChanges> {
    const { changes, recorded } = await this.afterEarly(conv, cellId, skippedBefore);
    await recorded;
    return changes;
  }

  /**
   * As after(), but says what the cell changed as soon as that is known: `recorded` settles once the
   * list naming the after tree is on disk (the store stays locked until then, so no collection in
   * another process can miss the tree), and fails if it could not be written.
   */
  afterEarly(
    conv: { id: string; workspace: string },
    cellId: string,
    skippedBefore: Skipped[],
  ): Promise<{ changes: CellChanges; recorded: Promise<void> }> {
    return new Promise((resolve, reject) => {
      const recorded: Promise<void> = this.withStore(conv.workspace, async (store) => {
        const record = await this.records.forWorkspace(conv.id, conv.workspace);
        const entry = record.entries.find((e) => e.cellId === cellId);
        if (!entry) {
          resolve({ changes: { checkpointed: false, files: [], skipped: [], note: 'no checkpoint was taken before this cell' }, recorded });
          return;
        }
        const shot = await store.snapshotter.take(this.limits());
        entry.after = shot.tree;
        entry.afterModes = shot.modes;
        entry.afterUnkept = shot.unkept;
        entry.afterChunks = shot.chunks;
        entry.bytes += shot.bytesStored;
        const files = await changesBetween(store.objects, entry.before, shot.tree, await this.bigSizes(store, entry));
        entry.changed = files.length;
        // Read before pruning, which may drop this entry's blobs.
        const lost = await this.unrestorable(store.objects, entry.beforeUnkept, shot.unkept, shot.tree);
        const dropped = this.enforceBudget(record);
        const saved = this.records.save(conv.id, record);
        resolve({
          changes: {
            checkpointed: true,
            files,
            skipped: mergeSkipped(skippedBefore, shot.skipped),
            ...(lost.length > 0 ? { unrestorable: lost.slice(0, MAX_LISTED), unrestorableCount: lost.length } : {}),
          },
          recorded,
        });
        await saved;
        if (dropped || (await this.enforceStoreLimit(conv.workspace))) await this.collect(store, conv.workspace);
      });
      // A failure before the changes are known fails the call; after, it fails `recorded` alone.
      recorded.catch(reject);
    });
  }

  async list(
    conversationId: string,
  ): Promise<{ checkpoints: Array<{ cellId: string; createdAt: string; changed: number }>; storeBytes: number }> {
    const record = await this.records.load(conversationId);
    const bytes = record ? await storeBytes(this.storeDir(record.workspace)) : 0;
    return {
      checkpoints: (record?.entries ?? []).map(({ cellId, createdAt, changed }) => ({ cellId, createdAt, changed })),
      storeBytes: bytes,
    };
  }

  /** Each changed file of a cell: a text diff, images before and after, or a note for binaries. */
  async diff(conversationId: string, cellId: string, wholeText = false): Promise<FileDiff[]> {
    const missing = () => new Error(`no checkpoints for cell ${cellId} in this conversation`);
    const first = await this.records.load(conversationId);
    if (!first) throw missing();
    return this.withStore(first.workspace, async (store) => {
      // Read again under the store's lock: a cell just done may still be saving its after tree (afterEarly).
      const entry = (await this.records.load(conversationId))?.entries.find((e) => e.cellId === cellId);
      if (!entry?.after) throw missing();
      return fileDiffs(store.objects, entry.before, entry.after, await this.bigSizes(store, entry), wholeText);
    });
  }

  /** Puts the workspace back as it was just before `cellId` ran. */
  restore(conv: { id: string; workspace: string }, cellId: string, confirm: boolean): Promise<RestoreOutcome> {
    return this.withStore(conv.workspace, async (store) => {
      const record = await this.records.forWorkspace(conv.id, conv.workspace);
      const index = record.entries.findIndex((e) => e.cellId === cellId);
      const target = record.entries[index];
      if (!target) throw new Error(`there is no checkpoint before cell ${cellId} (it may have been pruned, or never run here)`);
      const now = await store.snapshotter.take(this.limits());
      const targetFiles = await store.objects.listTree(target.before);
      const nowFiles = await store.objects.listTree(now.tree);
      const outside = await this.changedOutside(store, record.entries.slice(index), now.tree);
      // The repositories present before the restore are the ones it leaves alone (a `.git` it brings
      // back is written whole, its modes included).
      const gitFolders = await presentGitFolders(store.root, targetFiles);
      const targetUnkept = await this.unkept(store.objects, target.beforeUnkept);
      const plan = planRestore(nowFiles, targetFiles, leftAsIs(targetUnkept), gitFolders);
      // Big files' chunks are checked before anything changes: a damaged store fails here, losing nothing.
      const chunks = await chunkedWrites(store.objects, plan.write, await readChunkIndex(store.objects, target.beforeChunks));
      const touched = new Set([...plan.write.map((e) => e.path), ...plan.remove]);
      const atRisk = [...outside].filter((p) => touched.has(p) || [...touched].some((t) => p.startsWith(`${t}/`))).sort();
      const lost = unkeptChanges(targetUnkept, await this.unkept(store.objects, now.unkept), new Set(nowFiles.map((e) => e.path)));
      const cannot: CannotRestore = { cannotRestore: lost.slice(0, MAX_LISTED), cannotRestoreCount: lost.length };
      if (atRisk.length > 0 && !confirm) return { status: 'needs-confirmation', modifiedOutside: atRisk, ...cannot };
      // The present state is a checkpoint too, so this rewind can itself be undone.
      record.entries.push({
        cellId: `restore-${Date.now().toString(36)}`,
        before: now.tree,
        beforeModes: now.modes,
        beforeUnkept: now.unkept,
        beforeChunks: now.chunks,
        after: target.before,
        afterModes: target.beforeModes ?? null,
        afterUnkept: target.beforeUnkept ?? null,
        afterChunks: target.beforeChunks ?? null,
        createdAt: new Date().toISOString(),
        bytes: now.bytesStored,
        changed: touched.size,
      });
      await this.records.save(conv.id, record);
      await writeFileAtomic(
        path.join(store.objects.gitDir, JOURNAL),
        JSON.stringify({
          target: target.before,
          modes: target.beforeModes ?? null,
          unkept: target.beforeUnkept ?? null,
          chunks: target.beforeChunks ?? null,
          startedAt: new Date().toISOString(),
        }),
      );
      const perms = await this.perms(store.objects, target.beforeModes);
      const changedPaths =
        (await applyRestore(store.root, store.objects, plan, perms, chunks)) +
        (await applyPermissions(store.root, targetFiles, perms, keptAsIs(gitFolders)));
      await unlink(path.join(store.objects.gitDir, JOURNAL));
      await store.snapshotter.forget(false);
      return { status: 'restored', changedPaths, ...cannot };
    });
  }

  /** What a cell did to paths its checkpoints could not keep, from their fingerprints before and after. */
  private async unrestorable(
    objects: GitObjects,
    before: string | null | undefined,
    after: string | null,
    tree: string,
  ): Promise<Unrestorable[]> {
    const was = await this.unkept(objects, before);
    const now = await this.unkept(objects, after);
    const nowPaths = new Set(now.map((u) => u.path));
    // Whether a path that went from the fingerprints is now recorded (changed) or gone (deleted).
    const recorded = was.some((u) => !nowPaths.has(u.path))
      ? new Set((await objects.listTree(tree)).map((e) => e.path))
      : new Set<string>();
    return unkeptChanges(was, now, recorded);
  }

  private async unkept(objects: GitObjects, blob: string | null | undefined): Promise<Unkept[]> {
    return blob ? parseUnkept((await objects.readBlob(blob)).toString('utf8')) : [];
  }

  /** Paths changed between checkpoints by something other than a cell, from `entries[0]` on, and since the last. */
  private async changedOutside(store: Store, entries: CheckpointEntry[], nowTree: string): Promise<Set<string>> {
    const paths = new Set<string>();
    let last: string | null = null;
    for (const e of entries) {
      if (last) for (const c of await changesBetween(store.objects, last, e.before)) paths.add(c.path);
      last = e.after;
    }
    if (last) for (const c of await changesBetween(store.objects, last, nowTree)) paths.add(c.path);
    return paths;
  }

  /** Oldest checkpoints go first when a conversation holds more than its budget or they are too old; true if any went. */
  private enforceBudget(record: ConversationRecord): boolean {
    const s = this.opts.settings();
    const budget = s.checkpointBudgetMb * 1024 * 1024;
    const oldest = Date.now() - s.checkpointKeepDays * 24 * 3600 * 1000;
    let total = record.entries.reduce((sum, e) => sum + e.bytes, 0);
    const before = record.entries.length;
    while (record.entries.length > 1 && (total > budget || Date.parse(record.entries[0]?.createdAt ?? '') < oldest)) {
      total -= record.entries.shift()?.bytes ?? 0;
    }
    return record.entries.length < before;
  }

  /**
   * The whole store past its size limit (settings): the oldest checkpoints of every conversation that
   * shares the folder go first, one at a time. Sizes are what each checkpoint added, so no walk of the
   * store is needed; true if any went.
   */
  private async enforceStoreLimit(workspace: string): Promise<boolean> {
    const limit = this.opts.settings().checkpointStoreMaxMb * 1024 * 1024;
    const records = await this.records.sharing(workspace);
    let total = records.reduce((sum, r) => sum + r.record.entries.reduce((s, e) => s + e.bytes, 0), 0);
    let dropped = false;
    while (total > limit) {
      const oldest = records
        .filter((r) => r.record.entries.length > 1)
        .sort((a, b) => (a.record.entries[0]?.createdAt ?? '').localeCompare(b.record.entries[0]?.createdAt ?? ''))[0];
      if (!oldest) break;
      total -= oldest.record.entries.shift()?.bytes ?? 0;
      dropped = true;
    }
    if (dropped) for (const r of records) await this.records.save(r.id, r.record);
    return dropped;
  }

  /** Packs the store and drops objects no conversation's checkpoint refers to any more. */
  private async collect(store: Store, workspace: string): Promise<void> {
    const live = new Set<string>();
    const liveModes = new Set<string>();
    for (const { record } of await this.records.sharing(workspace))
      for (const e of record.entries) {
        for (const t of [e.before, e.after]) if (t) live.add(t);
        for (const m of [e.beforeModes, e.afterModes, e.beforeUnkept, e.afterUnkept]) if (m) liveModes.add(m);
        // A holder keeps its big files' chunks alive: a chunk goes when no remaining checkpoint reaches it.
        for (const c of [e.beforeChunks, e.afterChunks]) if (c) live.add(c);
      }
    await store.objects.gc([...live], [...liveModes]);
    await store.snapshotter.forget();
  }

  /** The real sizes of the big files a cell's checkpoints stored as chunks, by pointer. */
  private async bigSizes(store: Store, entry: CheckpointEntry): Promise<Map<string, number>> {
    return chunkedSizes(await readChunkIndex(store.objects, entry.beforeChunks), await readChunkIndex(store.objects, entry.afterChunks));
  }

  /** A manifest's bits by path (none: every path has the bits its tree entry implies). */
  private async perms(objects: GitObjects, modes: string | null | undefined): Promise<Map<string, number>> {
    return modes ? parseManifest((await objects.readBlob(modes)).toString('utf8')) : new Map();
  }

  private limits(): ScanLimits {
    const s = this.opts.settings();
    return { maxFileBytes: s.checkpointMaxFileMb * 1024 * 1024, ignoredMaxBytes: s.checkpointIgnoredMaxKb * 1024 };
  }

  private storeDir(workspace: string): string {
    const key = createHash('sha256').update(canonical(workspace)).digest('hex').slice(0, 24);
    return path.join(this.dir, 'stores', `${key}.git`);
  }

  private async withStore<T>(workspace: string, run: (store: Store) => Promise<T>): Promise<T> {
    const root = canonical(workspace);
    const known = this.stores.get(root);
    if (known) return known.access.run(() => run(known));
    mkdirSync(path.join(this.dir, 'stores'), { recursive: true, mode: 0o700 });
    const objects = new GitObjects(this.storeDir(root));
    const snapshotter = new Snapshotter(objects, root, this.journal);
    const store: Store = {
      objects,
      snapshotter,
      root,
      access: new StoreAccess(objects.gitDir, root, () => snapshotter.forget(), this.opts.lock),
    };
    this.stores.set(root, store);
    // A set-up that failed fails the first operation with its reason; the later ones go ahead.
    const ready = store.access.run(() => objects.init().then(() => this.resumeRestore(objects, root)));
    void ready.catch(() => undefined);
    return store.access.run(async () => {
      await ready;
      return run(store);
    });
  }

  /** Finishes a restore that was cut short, so the workspace ends in the checkpoint's state, not a mix. */
  private async resumeRestore(objects: GitObjects, root: string): Promise<void> {
    const journal = path.join(objects.gitDir, JOURNAL);
    const text = await readFile(journal, 'utf8').catch(() => null);
    if (text === null) return;
    const { target, modes, unkept, chunks } = JSON.parse(text) as {
      target: string;
      modes?: string | null;
      unkept?: string | null;
      chunks?: string | null;
    };
    const snapshotter = new Snapshotter(objects, root);
    const now = await snapshotter.take(this.limits());
    const targetFiles = await objects.listTree(target);
    const gitFolders = await presentGitFolders(root, targetFiles);
    const perms = await this.perms(objects, modes);
    const plan = planRestore(await objects.listTree(now.tree), targetFiles, leftAsIs(await this.unkept(objects, unkept)), gitFolders);
    await applyRestore(root, objects, plan, perms, await chunkedWrites(objects, plan.write, await readChunkIndex(objects, chunks)));
    await applyPermissions(root, targetFiles, perms, keptAsIs(gitFolders));
    await unlink(journal);
    await snapshotter.forget();
  }

  /** Removes a conversation's list (its trees go at the next prune). */
  async forgetConversation(conversationId: string): Promise<void> {
    await this.records.remove(conversationId);
  }
}
