import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readWorkspaceFile, readWorkspaceFileInto, writeBlob } from './blob-writer';
import { storeChunked, writeChunkHolder, type ChunkRef } from './chunked-files';
import { CHUNKED_FROM, type ChunkList } from './chunking';
import type { ChangeJournal } from './change-journal';
import type { GitObjects, TreeEntry } from './git-objects';
import { HeldFolders } from './held-folders';
import { rescanPaths } from './incremental-scan';
import { permManifest } from './permissions';
import { encodeUnkept } from './ignored-paths';
import { linkTarget, scanWorkspace, type ScanLimits, type ScannedEntry, type ScanResult, type Skipped } from './workspace-scan';
import { errorMessage } from '@contract/error-message';

/**
 * Takes a snapshot of a workspace into the store and returns its root tree. A file whose size, times,
 * inode and mode are unchanged since it was last stored is not read again (the stat cache, kept beside
 * the store, like git's index); a file changed within the last two seconds is always read, since its
 * time may not move on a second change in the same tick. Folders whose entries did not change reuse
 * their tree without writing it again.
 *
 * With a change journal (change-journal.ts) a snapshot after the first of this process looks only at
 * the paths the journal names: nothing changed is the previous snapshot, and otherwise only the
 * folders holding a changed path (and the folders above them) get new trees.
 */

interface CachedFile {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  mode: string;
  sha: string;
  /** A big file's chunk tree (chunked-files.ts): `sha` is then its pointer; `bytes` its content's size. */
  root?: string;
  bytes?: number;
}

interface CacheFile {
  version: 1;
  files: Record<string, CachedFile>;
  trees: Record<string, string>;
}

const RACY_MS = 2000;
/** With the journal, the stat cache only serves the next start of the app, so it is saved at most this often. */
const SAVE_EVERY_MS = 5000;
const READS_IN_FLIGHT = 8;
/** The largest read buffer a snapshotter keeps for the next big file (the default size cap is 50 MB). */
const SPARE_MAX_BYTES = 64 * 1024 * 1024;

export interface SnapshotResult {
  tree: string;
  /** The permission bits the tree cannot hold (permissions.ts), as a blob; null when there are none. */
  modes: string | null;
  /** Paths present but not in the tree, by fingerprint (ignored-paths.ts), as a blob; null when there are none. */
  unkept: string | null;
  /** The big files stored as chunks (chunked-files.ts), as a holder tree; null when there are none. */
  chunks: string | null;
  skipped: Skipped[];
  files: number;
  /** Bytes of files read into the store this time (new or changed contents). */
  bytesStored: number;
}

/** What the last snapshot of this process saw, brought up to date from the journal's changes. */
interface Last {
  scan: ScanResult;
  result: SnapshotResult;
  limits: ScanLimits;
  /** Each recorded file's id, by path. */
  shas: Map<string, string>;
  /** The big files among them, stored as chunks. */
  chunked: Map<string, ChunkRef>;
  /** Each folder's tree, by path ('' is the root). */
  folderTrees: Map<string, string>;
}

type Plan =
  | { kind: 'unchanged' }
  | { kind: 'whole'; scan: ScanResult }
  | { kind: 'partial'; scan: ScanResult; affected: Set<string>; gone: string[] };

export class Snapshotter {
  private files: Map<string, CachedFile> | null = null;
  private trees: Record<string, string> = {};
  private dirty = false;
  private savedAt = 0;
  private last: Last | null = null;
  /** Each big file's last chunks in this process, so its next version hashes only what changed (chunking.ts). */
  private chunkLists = new Map<string, ChunkList>();
  /**
   * A buffer a big file was read into, kept for the next big file that fits (blob-writer.ts,
   * readWorkspaceFileInto, says why); at most SPARE_MAX_BYTES, so a workspace's huge file is not held.
   */
  private spare: Buffer | null = null;

  constructor(
    private readonly objects: GitObjects,
    private readonly root: string,
    private readonly journal: ChangeJournal | null = null,
  ) {}

  async take(limits: ScanLimits): Promise<SnapshotResult> {
    const files = await this.load();
    const started = Date.now();
    const plan = await this.plan(limits);
    if (plan.kind === 'unchanged' && this.last) return { ...this.last.result, skipped: [...this.last.result.skipped], bytesStored: 0 };
    const scan = plan.kind === 'unchanged' ? scanWorkspace(this.root, limits) : plan.scan;
    const partial = plan.kind === 'partial' && this.last ? { last: this.last, affected: plan.affected } : null;
    if (plan.kind === 'partial') for (const p of plan.gone) files.delete(p);
    const skipped = [...scan.skipped];
    const shas = new Map<string, string>();
    const chunked = new Map<string, ChunkRef>();
    // Folder → its entries (files and sub-folders), for the folders whose tree is written now.
    const children = new Map<string, TreeEntry[]>();
    const folders: string[] = [''];
    for (const e of scan.entries) if (e.kind === 'dir') folders.push(e.path);
    for (const f of folders) if (!partial || partial.affected.has(f)) children.set(f, []);
    const seen = partial ? null : new Set<string>();
    let count = 0;
    let bytesStored = 0;
    const toStore: ScannedEntry[] = [];
    for (const e of scan.entries) {
      if (e.kind === 'dir') continue;
      const held = partial && !partial.affected.has(parentOf(e.path)) ? partial.last.shas.get(e.path) : undefined;
      if (held) {
        shas.set(e.path, held);
        const ref = partial?.last.chunked.get(e.path);
        if (ref) chunked.set(e.path, ref);
        count++;
      } else toStore.push(e);
    }
    // Several files in flight: the reads wait on the disk while the main thread hashes and deflates others.
    const held = new HeldFolders(this.root);
    const storing = inParallel(toStore, READS_IN_FLIGHT, (e) => this.store(e, files.get(e.path), held, skipped, (n) => (bytesStored += n)));
    // `finally` waits for the promise its callback returns: the folders are closed before going on.
    // oxlint-disable-next-line typescript/no-misused-promises
    const stored = await storing.finally(() => held.close());
    toStore.forEach((e, i) => {
      const got = stored[i];
      if (!got) return;
      const { sha, root, bytes } = got;
      if (root) chunked.set(e.path, { pointer: sha, root, size: bytes ?? e.size });
      seen?.add(e.path);
      if (started - e.mtimeMs > RACY_MS && started - e.ctimeMs > RACY_MS) {
        const known = files.get(e.path);
        if (
          !known ||
          known.sha !== sha ||
          known.mtimeMs !== e.mtimeMs ||
          known.ctimeMs !== e.ctimeMs ||
          known.size !== e.size ||
          known.ino !== e.ino ||
          known.mode !== e.mode ||
          known.root !== root
        ) {
          const big = root ? { root, bytes: bytes ?? e.size } : {};
          files.set(e.path, { size: e.size, mtimeMs: e.mtimeMs, ctimeMs: e.ctimeMs, ino: e.ino, mode: e.mode, sha, ...big });
          this.dirty = true;
        }
      } else if (files.delete(e.path)) this.dirty = true;
      shas.set(e.path, sha);
      children.get(parentOf(e.path))?.push({ mode: e.mode, type: 'blob', sha, name: nameOf(e.path) });
      count++;
    });
    if (seen) {
      // A whole walk: whatever the cache holds that is not there any more goes.
      for (const p of files.keys()) {
        if (seen.has(p)) continue;
        files.delete(p);
        this.dirty = true;
      }
    }
    const usedTrees: Record<string, string> = partial ? this.trees : {};
    const folderTrees = new Map<string, string>();
    const tree = await this.objects.writeTrees(async (write) => {
      for (const folder of folders.sort((a, b) => depth(b) - depth(a))) {
        const list = children.get(folder);
        let sha = list ? undefined : partial?.last.folderTrees.get(folder);
        if (sha === undefined) {
          const entries = list ?? [];
          const key = entries
            .map((c) => `${c.mode} ${c.sha} ${c.name}`)
            .sort()
            .join('\n');
          sha = this.trees[key] ?? (await write(entries));
          if (usedTrees[key] !== sha) {
            usedTrees[key] = sha;
            this.dirty = true;
          }
        }
        folderTrees.set(folder, sha);
        if (folder !== '') children.get(parentOf(folder))?.push({ mode: '040000', type: 'tree', sha, name: nameOf(folder) });
      }
      return folderTrees.get('') ?? '';
    });
    if (!partial && Object.keys(this.trees).length !== Object.keys(usedTrees).length) this.dirty = true;
    this.trees = usedTrees;
    await this.save(!partial);
    const manifest = permManifest(scan.entries);
    const modes = manifest ? await writeBlob(this.objects.gitDir, Buffer.from(manifest, 'utf8')) : null;
    const unkeptText = encodeUnkept(scan.unkept);
    const unkept = unkeptText ? await writeBlob(this.objects.gitDir, Buffer.from(unkeptText, 'utf8')) : null;
    const chunks = await writeChunkHolder(this.objects, chunked);
    const result = { tree, modes, unkept, chunks, skipped, files: count, bytesStored };
    this.last = { scan, result: { ...result, skipped: [...skipped] }, limits, shas, chunked, folderTrees };
    return result;
  }

  /**
   * A file's id (and a big file's chunk tree): from the stat cache when its stats still match, else read
   * into the store (null: could not be read, listed).
   */
  private async store(
    e: ScannedEntry,
    known: CachedFile | undefined,
    folders: HeldFolders,
    skipped: Skipped[],
    stored: (bytes: number) => void,
  ): Promise<{ sha: string; root?: string; bytes?: number } | null> {
    if (
      known &&
      known.size === e.size &&
      known.mtimeMs === e.mtimeMs &&
      known.ctimeMs === e.ctimeMs &&
      known.ino === e.ino &&
      known.mode === e.mode
    )
      return { sha: known.sha, ...(known.root ? { root: known.root, bytes: known.bytes ?? known.size } : {}) };
    try {
      if (e.kind === 'symlink') return { sha: await writeBlob(this.objects.gitDir, linkTarget(this.root, e.path)) };
      const spare = e.size >= CHUNKED_FROM && this.spare && this.spare.length >= e.size ? this.spare : null;
      if (spare) this.spare = null;
      const content = spare
        ? await readWorkspaceFileInto(this.root, e.path, folders, spare)
        : await readWorkspaceFile(this.root, e.path, folders);
      if (content.length >= CHUNKED_FROM) {
        // Only the chunks the store lacks are written, and only they count against the budget.
        // Forgotten until this version is stored whole: a list names chunks the store is known to hold.
        const previous = this.chunkLists.get(e.path);
        this.chunkLists.delete(e.path);
        const made = await storeChunked(this.objects, content, previous);
        // Nothing refers to the bytes once stored (the chunk list holds ids only): the buffer is free.
        this.keepSpare(spare ?? content);
        this.chunkLists.set(e.path, made.chunks);
        stored(made.newBytes);
        return { sha: made.ref.pointer, root: made.ref.root, bytes: content.length };
      }
      this.chunkLists.delete(e.path);
      const sha = await writeBlob(this.objects.gitDir, content);
      if (known?.sha !== sha) stored(content.length);
      return { sha };
    } catch (err) {
      skipped.push({ path: e.path, reason: `could not be read (${(err as NodeJS.ErrnoException).code ?? errorMessage(err)})` });
      return null;
    }
  }

  private keepSpare(buffer: Buffer): void {
    if (buffer.length <= SPARE_MAX_BYTES && buffer.length > (this.spare?.length ?? 0)) this.spare = buffer;
  }

  /**
   * What to look at: nothing when the journal saw no change; the paths it names (and the folders that
   * hold them, up to the root) when it can vouch for every change; otherwise a whole walk — with the
   * journal (re)started first, so that a change made during the walk is seen next time.
   */
  private async plan(limits: ScanLimits): Promise<Plan> {
    const last = this.last;
    if (
      this.journal &&
      last &&
      last.limits.maxFileBytes === limits.maxFileBytes &&
      last.limits.ignoredMaxBytes === limits.ignoredMaxBytes
    ) {
      const changes = await this.journal.take(this.root);
      // An ignored folder recorded whole that the journal does not watch inside (it crossed a cap
      // between the two looks at it) may have changed unseen: only a walk can say.
      const watched = changes.whole ? null : new Set(changes.watchedIgnored);
      const seen = (scan: ScanResult) => scan.ignoredKept.every((p) => watched?.has(p));
      if (!changes.whole && seen(last.scan)) {
        if (changes.dirty.length === 0) return { kind: 'unchanged' };
        const updated = rescanPaths(this.root, last.scan, changes.dirty, limits);
        if (updated && seen(updated.scan))
          return { kind: 'partial', scan: updated.scan, affected: affectedFolders(updated.tops, updated.scan), gone: updated.gone };
      }
    }
    if (this.journal) await this.journal.watch(this.root);
    return { kind: 'whole', scan: scanWorkspace(this.root, limits) };
  }

  /**
   * Forget cached stats (after a restore wrote files, their times are new anyway). `chunks`: also the
   * big files' chunk lists — after a gc, which may have dropped chunks they name; a restore drops none.
   */
  async forget(chunks = true): Promise<void> {
    await this.load();
    this.files = new Map();
    this.dirty = true;
    this.last = null;
    this.spare = null;
    if (chunks) this.chunkLists = new Map();
  }

  private cacheFile(): string {
    return path.join(this.objects.gitDir, 'oi-stat-cache.json');
  }

  private async load(): Promise<Map<string, CachedFile>> {
    if (this.files) return this.files;
    const text = await readFile(this.cacheFile(), 'utf8').catch(() => null);
    const parsed = parseCache(text);
    const ok = parsed?.version === 1 && parsed.files && parsed.trees;
    this.files = new Map(ok ? Object.entries(parsed.files) : []);
    this.trees = ok ? parsed.trees : {};
    return this.files;
  }

  /**
   * Written beside and renamed, but not synced to disk: an entry only ever vouches for a file whose
   * size, times, inode and mode all still match, so a cache lost or older after a crash costs reading
   * files again, never a wrong checkpoint. After a partial snapshot it is saved at most every few
   * seconds (it serves only the next start of the app; the journal serves this one).
   */
  private async save(now: boolean): Promise<void> {
    if (!this.dirty || !this.files) return;
    if (!now && Date.now() - this.savedAt < SAVE_EVERY_MS) return;
    const file = this.cacheFile();
    const tmp = `${file}.${process.pid}.tmp`;
    const body: CacheFile = { version: 1, files: Object.fromEntries(this.files), trees: this.trees };
    await writeFile(tmp, JSON.stringify(body), { mode: 0o600 });
    await rename(tmp, file);
    this.dirty = false;
    this.savedAt = Date.now();
  }
}

/** `run` over `items` with at most `limit` at a time; results in the items' order. */
async function inParallel<T, R>(items: T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await run(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** The folders whose tree changes: those holding or inside a changed path, and every folder above them. */
function affectedFolders(tops: string[], scan: ScanResult): Set<string> {
  const out = new Set<string>(['']);
  const topSet = new Set(tops);
  for (const p of tops) for (let f = parentOf(p); f !== ''; f = parentOf(f)) out.add(f);
  for (const e of scan.entries) {
    if (e.kind !== 'dir') continue;
    if (topSet.has(e.path) || ancestorsOf(e.path).some((a) => topSet.has(a))) out.add(e.path);
  }
  return out;
}

function ancestorsOf(p: string): string[] {
  const out: string[] = [];
  for (let f = parentOf(p); f !== ''; f = parentOf(f)) out.push(f);
  return out;
}

const parentOf = (p: string): string => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const nameOf = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
const depth = (p: string): number => (p === '' ? 0 : p.split('/').length);

/** A damaged cache only costs reading every file once more. */
function parseCache(text: string | null): CacheFile | null {
  try {
    return text ? (JSON.parse(text) as CacheFile) : null;
  } catch {
    return null;
  }
}
