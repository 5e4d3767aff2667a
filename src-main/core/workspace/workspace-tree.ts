import type { Dirent } from 'node:fs';
import { lstat, readdir, realpath } from 'node:fs/promises';
import type { WorkspaceEntry, WorkspaceTree } from '@contract';
import { holdFolder, type HeldFolder } from '../fs/no-follow-open';

/** Folders listed but not opened: they are huge and nobody browses them in a file panel. */
export const UNOPENED_DIRS = new Set([
  '.git',
  'node_modules',
  '__pycache__',
  '.venv',
  'venv',
  '.ipynb_checkpoints',
  '.mypy_cache',
  '.pytest_cache',
]);

/** The app's own bookkeeping (spilled run output) lives here; it is not the user's. */
export const APP_DIR = '.oi';

export interface TreeOptions {
  /** Stop after this many entries so a workspace holding a dataset does not stall the UI. */
  maxEntries?: number;
  maxDepth?: number;
}

const DEFAULT_MAX_ENTRIES = 5000;
const DEFAULT_MAX_DEPTH = 12;

/**
 * The workspace as a flat, sorted list (folders first, then by name), breadth-first up to the caps.
 * Each folder is listed through a handle reached without following a link at any component
 * (no-follow-open.ts): a folder swapped for a link to elsewhere while we list is skipped, so no name
 * or size from outside is ever listed.
 */
export async function listTree(root: string, opts: TreeOptions = {}): Promise<WorkspaceTree> {
  const maxEntries = opts.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const maxDepth = opts.maxDepth ?? DEFAULT_MAX_DEPTH;
  const realRoot = await realpath(root);
  const entries: WorkspaceEntry[] = [];
  let truncated = false;
  let level: string[] = [''];
  for (let depth = 0; depth < maxDepth && level.length > 0 && !truncated; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      const folder = await holdFolder(realRoot, dir ? dir.split('/') : []).catch(() => null);
      if (!folder) continue; // removed, swapped for a link, or unreadable: show what we can
      try {
        let dirents: Dirent[];
        try {
          dirents = await readdir(folder.self, { withFileTypes: true });
        } catch {
          continue;
        }
        dirents.sort(byKindThenName);
        for (const d of dirents) {
          if (depth === 0 && d.name === APP_DIR) continue;
          if (entries.length >= maxEntries) {
            truncated = true;
            break;
          }
          const rel = dir ? `${dir}/${d.name}` : d.name;
          const stat = await lstat(folder.child(d.name)).catch(() => null);
          if (!stat) continue;
          const kind = stat.isDirectory() ? 'dir' : stat.isFile() ? 'file' : stat.isSymbolicLink() ? 'symlink' : 'other';
          entries.push({ path: rel, kind, size: kind === 'file' ? stat.size : 0, mtimeMs: stat.mtimeMs });
          // Symlinked folders are not followed: they may point outside the workspace, or loop.
          if (kind === 'dir' && !UNOPENED_DIRS.has(d.name)) next.push(rel);
        }
      } finally {
        await folder.close();
      }
      if (truncated) break;
    }
    level = next;
  }
  if (level.length > 0 && !truncated) truncated = await anyChildren(realRoot, level);
  entries.sort((a, b) => comparePaths(a, b));
  return { root: realRoot, entries, truncated };
}

async function anyChildren(root: string, dirs: string[]): Promise<boolean> {
  for (const dir of dirs) {
    const folder: HeldFolder | null = await holdFolder(root, dir.split('/')).catch(() => null);
    if (!folder) continue;
    try {
      const names = await readdir(folder.self).catch(() => []);
      if (names.length > 0) return true;
    } finally {
      await folder.close();
    }
  }
  return false;
}

function byKindThenName(a: Dirent, b: Dirent): number {
  const ad = a.isDirectory() ? 0 : 1;
  const bd = b.isDirectory() ? 0 : 1;
  return ad - bd || a.name.localeCompare(b.name);
}

/** Depth-first display order: a folder, then its contents, folders before files at each level. */
function comparePaths(a: WorkspaceEntry, b: WorkspaceEntry): number {
  const as = a.path.split('/');
  const bs = b.path.split('/');
  const n = Math.min(as.length, bs.length);
  for (let i = 0; i < n; i++) {
    if (as[i] === bs[i]) continue;
    // At the first differing level, a segment that has more below it (or is a dir) is a folder.
    const aDir = i < as.length - 1 || a.kind === 'dir';
    const bDir = i < bs.length - 1 || b.kind === 'dir';
    if (aDir !== bDir) return aDir ? -1 : 1;
    return (as[i] ?? '').localeCompare(bs[i] ?? '');
  }
  return as.length - bs.length;
}
