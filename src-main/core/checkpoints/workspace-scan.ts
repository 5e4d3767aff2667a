import { lstatSync, readdirSync, readFileSync, readlinkSync, type Stats } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/**
 * What a checkpoint records of a workspace: every file, symlink and folder, by path, except what is
 * ignored — .gitignore rules (at any level, as git reads them) plus folders no one wants back
 * (virtual environments, node_modules, caches, the app's own output logs) — and files over the size
 * cap. Whatever is left out for another reason than an ignore rule is listed, never dropped silently.
 * Nothing is followed: a symlink is recorded as a link, never read through.
 */

export const DEFAULT_IGNORES = ['.venv/', 'venv/', 'node_modules/', '__pycache__/', '.oi/outputs/', '.ipynb_checkpoints/', '.mypy_cache/', '.pytest_cache/'];

export type ScannedKind = 'file' | 'symlink' | 'dir';

export interface ScannedEntry {
  /** '/'-separated, relative to the workspace. */
  path: string;
  kind: ScannedKind;
  /** Git's mode: 100644, 100755, 120000 or 040000. */
  mode: string;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

export interface Skipped {
  path: string;
  reason: string;
}

export interface ScanResult {
  entries: ScannedEntry[];
  skipped: Skipped[];
}

export function scanWorkspace(root: string, maxFileBytes: number): ScanResult {
  const entries: ScannedEntry[] = [];
  const skipped: Skipped[] = [];
  const base = ignore().add(DEFAULT_IGNORES);
  const walk = (dir: string, rel: string, rules: Array<{ at: string; ig: Ignore }>) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (err) {
      skipped.push({ path: rel || '.', reason: `unreadable folder (${(err as NodeJS.ErrnoException).code ?? 'error'})` });
      return;
    }
    const own = readGitignore(dir);
    const scoped = own ? [...rules, { at: rel, ig: own }] : rules;
    for (const name of names.sort()) {
      const relPath = rel ? `${rel}/${name}` : name;
      const full = path.join(dir, name);
      let st: Stats;
      try {
        st = lstatSync(full);
      } catch {
        continue; // gone between readdir and lstat: it is simply not there now
      }
      const isDir = st.isDirectory();
      if (ignored(base, scoped, relPath, isDir)) continue;
      if (isDir) {
        entries.push(entry(relPath, 'dir', '040000', st));
        walk(full, relPath, scoped);
      } else if (st.isSymbolicLink()) {
        entries.push(entry(relPath, 'symlink', '120000', st));
      } else if (st.isFile()) {
        if (st.size > maxFileBytes) {
          skipped.push({ path: relPath, reason: `larger than the ${formatMb(maxFileBytes)} cap (${formatMb(st.size)})` });
          continue;
        }
        entries.push(entry(relPath, 'file', st.mode & 0o111 ? '100755' : '100644', st));
      } else {
        skipped.push({ path: relPath, reason: 'not a file, folder or symlink (a socket, pipe or device)' });
      }
    }
  };
  walk(root, '', []);
  return { entries, skipped };
}

function entry(relPath: string, kind: ScannedKind, mode: string, st: Stats): ScannedEntry {
  return { path: relPath, kind, mode, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino };
}

/** The rules of this folder's .gitignore (read as data; a link named .gitignore is not followed). */
function readGitignore(dir: string): Ignore | null {
  const file = path.join(dir, '.gitignore');
  try {
    if (!lstatSync(file).isFile()) return null;
    return ignore().add(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

function ignored(base: Ignore, rules: Array<{ at: string; ig: Ignore }>, relPath: string, isDir: boolean): boolean {
  const probe = isDir ? `${relPath}/` : relPath;
  if (base.ignores(probe)) return true;
  for (const { at, ig } of rules) {
    const inner = at ? probe.slice(at.length + 1) : probe;
    if (inner && ig.ignores(inner)) return true;
  }
  return false;
}

/** A symlink's target, as git stores it (the link's text, never what it points at). */
export function linkTarget(root: string, relPath: string): Buffer {
  return Buffer.from(readlinkSync(path.join(root, relPath)), 'utf8');
}

export function formatMb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;
}
