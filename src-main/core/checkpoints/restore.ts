import { lstat, symlink } from 'node:fs/promises';
import { holdFolder, removeBeneath, writeNewFileBeneath } from '../fs/no-follow-open';
import type { FlatEntry, GitObjects } from './git-objects';
import { wantedPerm } from './permissions';
import { readChunked } from './chunked-files';
import { insideAny, type Unkept, type Unrestorable } from './ignored-paths';

/**
 * Puts a workspace back to a tree from the store: files and links written, modes set, folders made
 * (empty ones too), and whatever the tree does not hold removed — except ignored paths (never in a
 * tree, never touched) and `.git` folders that exist now: a repository's own folder is only ever
 * brought back when it is gone, never rewritten. Every write and removal goes through
 * no-follow-open.ts, so a link the code planted is replaced as a link, never written through.
 *
 * It is idempotent — it compares what is there with the tree before each change — so a restore cut
 * short (the app killed) is finished by running it again from its journal (checkpoint-service.ts).
 */

export interface RestorePlan {
  write: FlatEntry[];
  remove: string[];
  makeDirs: string[];
}

/** What must change for `root` to match `target`; `current` is the tree the workspace holds now. */
export function planRestore(
  current: FlatEntry[],
  target: FlatEntry[],
  isIgnored: (path: string) => boolean,
  gitFoldersPresent: Set<string>,
): RestorePlan {
  const protectedByGit = (p: string) => {
    const top = gitFolderOf(p);
    return top !== null && gitFoldersPresent.has(top);
  };
  const want = new Map(target.map((e) => [e.path, e]));
  const have = new Map(current.map((e) => [e.path, e]));
  const write: FlatEntry[] = [];
  const makeDirs: string[] = [];
  for (const e of target) {
    if (protectedByGit(e.path) || isIgnored(e.path)) continue;
    const now = have.get(e.path);
    if (e.type === 'tree') {
      if (!now || now.type !== 'tree') makeDirs.push(e.path);
    } else if (!now || now.sha !== e.sha || now.mode !== e.mode) {
      write.push(e);
    }
  }
  const remove: string[] = [];
  for (const e of current) {
    if (protectedByGit(e.path) || isIgnored(e.path)) continue;
    const wanted = want.get(e.path);
    // A path whose kind changes (file ↔ folder ↔ link) is removed first, then made anew.
    if (
      !wanted ||
      (wanted.type === 'tree') !== (e.type === 'tree') ||
      (wanted.type === 'blob' && wanted.mode !== e.mode && (wanted.mode === '120000' || e.mode === '120000'))
    )
      remove.push(e.path);
  }
  // Deepest first, and nothing inside a folder that is itself removed.
  const removed = new Set<string>();
  const pruned = remove
    .sort((a, b) => a.localeCompare(b))
    .filter((p) => {
      for (const r of removed) if (p.startsWith(`${r}/`)) return false;
      removed.add(p);
      return true;
    });
  return { write, remove: pruned, makeDirs: makeDirs.sort((a, b) => depthOf(a) - depthOf(b)) };
}

/**
 * Files are made with their owner's bits only (`perms`: the manifest's, permissions.ts) and folders
 * 700 (their files are written into them next), so nothing is readable by others even for a moment;
 * applyPermissions then sets the exact bits.
 */
export async function applyRestore(
  root: string,
  objects: GitObjects,
  plan: RestorePlan,
  perms: ReadonlyMap<string, number> = new Map(),
  chunked: ReadonlyMap<string, ReadonlyArray<{ sha: string; size: number }>> = new Map(),
): Promise<number> {
  const ownerOnly = (e: FlatEntry) => wantedPerm(e, perms) & 0o700;
  for (const p of plan.remove) await removeBeneath(root, p.split('/'));
  for (const dir of plan.makeDirs) {
    const held = await holdFolder(root, dir.split('/'), { create: true, mode: 0o700 });
    await held.close();
  }
  const read = await blobsInBatches(objects, plan.write, chunked);
  for (const e of plan.write) {
    const segments = e.path.split('/');
    // A big file stored as chunks (chunked-files.ts) is put together from them; its checked list says which.
    const chunks = chunked.get(e.path);
    const content = chunks ? await readChunked(objects, chunks) : await read(e);
    if (e.mode === '120000') {
      const folder = await holdFolder(root, segments.slice(0, -1), { create: true, mode: 0o755 });
      try {
        const at = folder.child(segments.at(-1) ?? '');
        await removeBeneath(root, segments).catch(() => undefined);
        await symlink(content.toString('utf8'), at);
      } finally {
        await folder.close();
      }
      continue;
    }
    await writeNewFileBeneath(root, segments, content, {
      replace: true,
      create: true,
      mode: 0o700,
      fileMode: ownerOnly(e),
    });
  }
  return plan.write.length + plan.remove.length + plan.makeDirs.length;
}

/** How many bytes of blobs one `git cat-file --batch` may bring into memory at once. */
const BATCH_BYTES = 32 * 1024 * 1024;

/**
 * The written files' bytes, read from the store a batch at a time (one `git cat-file --batch` for
 * files up to BATCH_BYTES together; one `--batch-check` first for their sizes) rather than a `git
 * cat-file blob` process per file: each process is forked from the app's own, which costs far more
 * than the small files most restores write (a restore of 30 files started 30 git processes). `read`
 * is called in `entries`' order; a file over the bound gets a batch of its own.
 */
async function blobsInBatches(
  objects: GitObjects,
  entries: readonly FlatEntry[],
  chunked: ReadonlyMap<string, unknown>,
): Promise<(e: FlatEntry) => Promise<Buffer>> {
  const plain = entries.filter((e) => !chunked.has(e.path));
  if (plain.length <= 1) return (e) => objects.readBlob(e.sha);
  const sizes = await objects.sizes([...new Set(plain.map((e) => e.sha))]);
  let at = 0;
  let batch = new Map<FlatEntry, Buffer>();
  return async (e) => {
    if (!batch.has(e)) {
      const next: FlatEntry[] = [];
      let bytes = 0;
      while (at < plain.length) {
        const entry = plain[at] as FlatEntry;
        const size = sizes.get(entry.sha) ?? 0;
        if (next.length > 0 && bytes + size > BATCH_BYTES) break;
        next.push(entry);
        bytes += size;
        at++;
      }
      const blobs = await objects.readBlobs(next.map((n) => n.sha));
      batch = new Map(next.map((n, i) => [n, blobs[i] as Buffer]));
    }
    const content = batch.get(e);
    if (!content) throw new Error(`the store gave no bytes for ${e.path}`);
    return content;
  };
}

/** The top `.git` folder on a path ('a/.git/HEAD' → 'a/.git'), or null. */
export function gitFolderOf(p: string): string | null {
  const parts = p.split('/');
  const i = parts.indexOf('.git');
  return i < 0 ? null : parts.slice(0, i + 1).join('/');
}

/** `.git` folders of the tree that exist in the workspace now (as real folders, not links). */
export async function presentGitFolders(root: string, target: FlatEntry[]): Promise<Set<string>> {
  const present = new Set<string>();
  const candidates = new Set(target.map((e) => gitFolderOf(e.path)).filter((p): p is string => p !== null));
  for (const folder of candidates) {
    const st = await lstat(`${root}/${folder}`).catch(() => null);
    if (st?.isDirectory()) present.add(folder);
  }
  return present;
}

const depthOf = (p: string) => p.split('/').length;

/** A `.git` folder present now is never rewritten by a restore (restore.ts), its modes included. */
export function keptAsIs(gitFolders: Set<string>): (path: string) => boolean {
  return (p) => {
    const top = gitFolderOf(p);
    return top !== null && gitFolders.has(top);
  };
}

/**
 * What a rewind leaves alone: paths the checkpoint saw but could not keep (an ignored folder, a file
 * over its cap). Removing one because the tree does not hold it would delete what it cannot put back.
 */
export function leftAsIs(unkept: readonly Unkept[]): (path: string) => boolean {
  const paths = new Set(unkept.map((u) => u.path));
  return (p) => insideAny(paths, p);
}

/** Paths a rewind cannot put back (ignored-paths.ts): the first MAX_LISTED, and how many in all. */
export interface CannotRestore {
  cannotRestore: Unrestorable[];
  cannotRestoreCount: number;
}

export type RestoreOutcome =
  | ({ status: 'restored'; changedPaths: number } & CannotRestore)
  | ({ status: 'needs-confirmation'; modifiedOutside: string[] } & CannotRestore);
