import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../conversations/atomic-write';
import { writeBlob, writeWorkspaceBlob } from './blob-writer';
import type { GitObjects, TreeEntry } from './git-objects';
import { linkTarget, scanWorkspace, type Skipped } from './workspace-scan';

/**
 * Takes a snapshot of a workspace into the store and returns its root tree. A file whose size, times,
 * inode and mode are unchanged since it was last stored is not read again (the stat cache, kept beside
 * the store, like git's index); a file changed within the last two seconds is always read, since its
 * time may not move on a second change in the same tick. Folders whose entries did not change reuse
 * their tree without asking git.
 */

interface CachedFile {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  mode: string;
  sha: string;
}

interface CacheFile {
  version: 1;
  files: Record<string, CachedFile>;
  trees: Record<string, string>;
}

const RACY_MS = 2000;

export interface SnapshotResult {
  tree: string;
  skipped: Skipped[];
  files: number;
  /** Bytes of files read into the store this time (new or changed contents). */
  bytesStored: number;
}

export class Snapshotter {
  private cache: CacheFile | null = null;
  private dirty = false;

  constructor(
    private readonly objects: GitObjects,
    private readonly root: string,
  ) {}

  async take(maxFileBytes: number): Promise<SnapshotResult> {
    const cache = await this.load();
    const started = Date.now();
    const { entries, skipped } = scanWorkspace(this.root, maxFileBytes);
    const files = new Map<string, CachedFile>();
    // Folder → its entries (files and sub-folders), filled bottom-up below.
    const children = new Map<string, TreeEntry[]>([['', []]]);
    for (const e of entries) if (e.kind === 'dir') children.set(e.path, []);
    let count = 0;
    let bytesStored = 0;
    for (const e of entries) {
      if (e.kind === 'dir') continue;
      const known = cache.files[e.path];
      let sha: string;
      if (known && known.size === e.size && known.mtimeMs === e.mtimeMs && known.ctimeMs === e.ctimeMs && known.ino === e.ino && known.mode === e.mode) {
        sha = known.sha;
      } else {
        try {
          if (e.kind === 'symlink') sha = await writeBlob(this.objects.gitDir, linkTarget(this.root, e.path));
          else {
            const stored = await writeWorkspaceBlob(this.objects.gitDir, this.root, e.path);
            sha = stored.sha;
            if (known?.sha !== sha) bytesStored += stored.size;
          }
        } catch (err) {
          skipped.push({ path: e.path, reason: `could not be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` });
          continue;
        }
        this.dirty = true;
      }
      if (started - e.mtimeMs > RACY_MS && started - e.ctimeMs > RACY_MS) files.set(e.path, { size: e.size, mtimeMs: e.mtimeMs, ctimeMs: e.ctimeMs, ino: e.ino, mode: e.mode, sha });
      else this.dirty = true;
      children.get(parentOf(e.path))?.push({ mode: e.mode, type: 'blob', sha, name: nameOf(e.path) });
      count++;
    }
    if (Object.keys(cache.files).length !== files.size) this.dirty = true;
    cache.files = Object.fromEntries(files);
    const usedTrees: Record<string, string> = {};
    const folders = [...children.keys()].sort((a, b) => depth(b) - depth(a));
    const tree = await this.objects.writeTrees(async (write) => {
      const shaOf = new Map<string, string>();
      for (const folder of folders) {
        const list = children.get(folder) ?? [];
        const key = list.map((c) => `${c.mode} ${c.sha} ${c.name}`).sort().join('\n');
        const sha = cache.trees[key] ?? (await write(list));
        usedTrees[key] = sha;
        shaOf.set(folder, sha);
        if (folder !== '') children.get(parentOf(folder))?.push({ mode: '040000', type: 'tree', sha, name: nameOf(folder) });
      }
      return shaOf.get('') ?? '';
    });
    if (Object.keys(usedTrees).some((k) => cache.trees[k] === undefined) || Object.keys(cache.trees).length !== Object.keys(usedTrees).length) this.dirty = true;
    cache.trees = usedTrees;
    await this.save();
    return { tree, skipped, files: count, bytesStored };
  }

  /** Forget cached stats (after a restore wrote files, their times are new anyway). */
  async forget(): Promise<void> {
    this.cache = { version: 1, files: {}, trees: (await this.load()).trees };
    this.dirty = true;
  }

  private cacheFile(): string {
    return path.join(this.objects.gitDir, 'oi-stat-cache.json');
  }

  private async load(): Promise<CacheFile> {
    if (this.cache) return this.cache;
    const text = await readFile(this.cacheFile(), 'utf8').catch(() => null);
    const parsed = parseCache(text);
    this.cache = parsed?.version === 1 && parsed.files && parsed.trees ? parsed : { version: 1, files: {}, trees: {} };
    return this.cache;
  }

  private async save(): Promise<void> {
    if (!this.dirty || !this.cache) return;
    await writeFileAtomic(this.cacheFile(), JSON.stringify(this.cache));
    this.dirty = false;
  }
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
