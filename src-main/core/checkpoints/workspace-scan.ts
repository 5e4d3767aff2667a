import { lstatSync, readdirSync, readFileSync, readlinkSync, type Stats } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { formatMb } from './format-size';
import { keepIgnored, type ScanLimits, type Unkept } from './ignored-paths';

/**
 * What a checkpoint records of a workspace: every file, symlink and folder, by path, except what is
 * ignored — .gitignore rules (at any level, as git reads them) plus folders no one wants back
 * (virtual environments, node_modules, caches, the app's own output logs) — and files over the size
 * cap. Whatever is left out for another reason than an ignore rule is listed, never dropped silently.
 * Nothing is followed: a symlink is recorded as a link, never read through.
 */

/** Installed dependencies: never recorded (big, and reinstalled), but listed when a cell changes or deletes one. */
const INSTALLED = ['.venv/', 'venv/', 'node_modules/'];
/** Caches and the app's own output logs, which their tools make again: never recorded, never listed. */
const REGENERATED = ['__pycache__/', '.oi/outputs/', '.ipynb_checkpoints/', '.mypy_cache/', '.pytest_cache/'];
export const DEFAULT_IGNORES = [...INSTALLED, ...REGENERATED];

/** The default ignores, built once (the `ignore` package caches what it has decided per instance). */
const BASE = ignore().add(DEFAULT_IGNORES);
const SILENT = ignore().add(REGENERATED);
const INSTALLED_IG = ignore().add(INSTALLED);

/**
 * An ignored folder (a `build/`, `dist/`, `out/`) is recorded whole, like any folder, while it holds
 * at most this many names in all and its kept files total at most IGNORED_FOLDER_MAX_BYTES: a cell's
 * `rm -rf *` or `make clean` deletes small ignored files inside folders as readily as beside them.
 * Past either cap it is only fingerprinted (ignored-paths.ts): walking and storing a big tree of
 * ignored files at every checkpoint would cost more than the rest of the checkpoint. Installed
 * dependencies (INSTALLED) are always fingerprinted: they are big and reinstalled.
 */
export const IGNORED_FOLDER_MAX_ENTRIES = 1000;
export const IGNORED_FOLDER_MAX_BYTES = 20 * 1024 * 1024;

export type ScannedKind = 'file' | 'symlink' | 'dir';

export interface ScannedEntry {
  /** '/'-separated, relative to the workspace. */
  path: string;
  kind: ScannedKind;
  /** Git's mode: 100644, 100755, 120000 or 040000. */
  mode: string;
  /** Every permission bit (st_mode & 0o7777): a git tree keeps only 644 and 755 (permissions.ts). */
  perm: number;
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
  /** Paths present but not in the tree (ignored folders, ignored or other files over their cap), by fingerprint. */
  unkept: Unkept[];
  /** Ignored folders recorded whole (the topmost of each), which the change journal must watch inside. */
  ignoredKept: string[];
}

export type { ScanLimits };

export function scanWorkspace(root: string, limits: ScanLimits): ScanResult {
  const result: ScanResult = { entries: [], skipped: [], unkept: [], ignoredKept: [] };
  scanFolder(root, '', [], limits, result);
  return result;
}

/** The .gitignore rules in force inside folder `rel` (those of every folder above it, and its own). */
export type IgnoreRules = Array<{ at: string; ig: Ignore }>;

/** The rules that apply to names inside `rel`: the .gitignore files of the root and each folder down to `rel`. */
export function rulesFor(root: string, rel: string): IgnoreRules {
  const rules: IgnoreRules = [];
  const parts = rel ? rel.split('/') : [];
  for (let i = 0; i <= parts.length; i++) {
    const at = parts.slice(0, i).join('/');
    const own = readGitignore(at ? path.join(root, at) : root);
    if (own) rules.push({ at, ig: own });
  }
  return rules;
}

/** `above` and the rules of folder `rel`'s own .gitignore, if it has one. */
export function withOwnRules(root: string, rel: string, above: IgnoreRules): IgnoreRules {
  const own = readGitignore(rel ? path.join(root, rel) : root);
  return own ? [...above, { at: rel, ig: own }] : above;
}

/** Whether `relPath` is left out by the default ignores or the given rules. */
export function isIgnored(rules: IgnoreRules, relPath: string, isDir: boolean): boolean {
  return ignored(BASE, rules, relPath, isDir);
}

/** One entry for `relPath` as it is now (null if it is gone or ignored), adding to `out` what must be left out. */
export function scanOne(root: string, relPath: string, rules: IgnoreRules, limits: ScanLimits, out: ScanResult): void {
  let st: Stats;
  try {
    st = lstatSync(path.join(root, relPath));
  } catch {
    return;
  }
  visit(root, relPath, st, rules, limits, out);
}

/**
 * Everything inside folder `rel` (not the folder itself), recursively. `above` are the rules of the
 * folders above `rel`; its own .gitignore is read here.
 */
export function scanFolder(root: string, rel: string, above: IgnoreRules, limits: ScanLimits, out: ScanResult): void {
  const dir = rel ? path.join(root, rel) : root;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    out.skipped.push({ path: rel || '.', reason: `unreadable folder (${(err as NodeJS.ErrnoException).code ?? 'error'})` });
    return;
  }
  const scoped = withOwnRules(root, rel, above);
  for (const name of names.sort()) {
    const relPath = rel ? `${rel}/${name}` : name;
    let st: Stats;
    try {
      st = lstatSync(path.join(dir, name));
    } catch {
      continue; // gone between readdir and lstat: it is simply not there now
    }
    visit(root, relPath, st, scoped, limits, out);
  }
}

function visit(root: string, relPath: string, st: Stats, rules: IgnoreRules, limits: ScanLimits, out: ScanResult): void {
  const isDir = st.isDirectory();
  const maxFileBytes = limits.maxFileBytes;
  if (ignored(BASE, rules, relPath, isDir)) {
    // Ignored: a small file is kept all the same (a rewind must be able to put back the `.env` or
    // `debug.log` a cell deleted), and so is a small folder; anything bigger is only fingerprinted.
    if (SILENT.ignores(isDir ? `${relPath}/` : relPath)) return;
    if (isDir && !INSTALLED_IG.ignores(`${relPath}/`) && keepIgnoredFolder(root, relPath, st, limits, out)) return;
    keepIgnoredEntry(relPath, st, limits, out);
    return;
  }
  if (isDir) {
    out.entries.push(entry(relPath, 'dir', '040000', st));
    scanFolder(root, relPath, rules, limits, out);
  } else if (st.isSymbolicLink()) {
    out.entries.push(entry(relPath, 'symlink', '120000', st));
  } else if (st.isFile()) {
    if (st.size > maxFileBytes) {
      const reason = `larger than the ${formatMb(maxFileBytes)} cap (${formatMb(st.size)})`;
      out.skipped.push({ path: relPath, reason });
      out.unkept.push(fingerprint(relPath, 'file', st, reason));
      return;
    }
    out.entries.push(entry(relPath, 'file', fileMode(st), st));
  } else {
    const reason = 'not a file, folder or symlink (a socket, pipe or device)';
    out.skipped.push({ path: relPath, reason });
    out.unkept.push(fingerprint(relPath, 'other', st, reason));
  }
}

const BIG_FOLDER = `an ignored folder of more than ${IGNORED_FOLDER_MAX_ENTRIES} names or ${formatMb(IGNORED_FOLDER_MAX_BYTES)} of files: its contents are not kept`;
const DEPENDENCIES = 'installed dependencies (reinstalled, never kept)';

function keepIgnoredEntry(relPath: string, st: Stats, limits: ScanLimits, out: ScanResult): void {
  const why = INSTALLED_IG.ignores(`${relPath}/`) ? DEPENDENCIES : BIG_FOLDER;
  const kept = keepIgnored(relPath, st, limits, out.unkept, why);
  if (kept) out.entries.push(entry(relPath, kept, kept === 'symlink' ? '120000' : fileMode(st), st));
}

/** Records ignored folder `relPath` whole when it is within the caps; false (nothing added) when it is not. */
function keepIgnoredFolder(root: string, relPath: string, st: Stats, limits: ScanLimits, out: ScanResult): boolean {
  const inner: ScanResult = { entries: [], skipped: [], unkept: [], ignoredKept: [] };
  const budget = { names: IGNORED_FOLDER_MAX_ENTRIES, bytes: IGNORED_FOLDER_MAX_BYTES };
  if (!walkIgnored(root, relPath, limits, inner, budget)) return false;
  out.entries.push(entry(relPath, 'dir', '040000', st), ...inner.entries);
  out.unkept.push(...inner.unkept);
  out.ignoredKept.push(relPath);
  return true;
}

/**
 * Everything inside an ignored folder (all of it ignored too: git cannot un-ignore inside one), as
 * the ignored names beside it are kept; false as soon as a cap is passed or a folder is unreadable
 * (the whole ignored folder is then fingerprinted instead).
 */
function walkIgnored(root: string, rel: string, limits: ScanLimits, out: ScanResult, budget: { names: number; bytes: number }): boolean {
  let names: string[];
  try {
    names = readdirSync(path.join(root, rel));
  } catch {
    return false;
  }
  budget.names -= names.length;
  if (budget.names < 0) return false;
  for (const name of names.sort()) {
    const relPath = `${rel}/${name}`;
    let st: Stats;
    try {
      st = lstatSync(path.join(root, relPath));
    } catch {
      continue;
    }
    const isDir = st.isDirectory();
    if (SILENT.ignores(isDir ? `${relPath}/` : relPath)) continue;
    if (isDir && !INSTALLED_IG.ignores(`${relPath}/`)) {
      out.entries.push(entry(relPath, 'dir', '040000', st));
      if (!walkIgnored(root, relPath, limits, out, budget)) return false;
      continue;
    }
    const before = out.entries.length;
    keepIgnoredEntry(relPath, st, limits, out);
    if (out.entries.length > before && st.isFile()) {
      budget.bytes -= st.size;
      if (budget.bytes < 0) return false;
    }
  }
  return true;
}

/**
 * Whether the change journal watches inside ignored folder `rel` (journal-worker.ts): the folders a
 * checkpoint may record whole, counted by names only (the checkpoint's own rule also caps the bytes,
 * so it records a subset of what is watched; snapshot.ts checks that it does).
 */
export function watchIgnoredFolder(root: string, rel: string): boolean {
  if (neverInside(rel)) return false;
  let left = IGNORED_FOLDER_MAX_ENTRIES;
  const count = (at: string): boolean => {
    let list: Array<{ name: string; isDirectory(): boolean }>;
    try {
      list = readdirSync(path.join(root, at), { withFileTypes: true });
    } catch {
      return false;
    }
    left -= list.length;
    return left >= 0 && list.every((d) => !d.isDirectory() || neverInside(`${at}/${d.name}`) || count(`${at}/${d.name}`));
  };
  return count(rel);
}

/** Installed dependencies and regenerated caches: never looked inside, wherever they are. */
export function neverInside(rel: string): boolean {
  return INSTALLED_IG.ignores(`${rel}/`) || SILENT.ignores(`${rel}/`);
}

/** Caches their tools make again: never recorded, never listed, never watched. */
export function isRegenerated(rel: string): boolean {
  return SILENT.ignores(`${rel}/`);
}

const fileMode = (st: Stats): string => (st.mode & 0o111 ? '100755' : '100644');

export function fingerprint(relPath: string, kind: Unkept['kind'], st: Stats, why: string): Unkept {
  return { path: relPath, kind, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, why };
}

function entry(relPath: string, kind: ScannedKind, mode: string, st: Stats): ScannedEntry {
  return { path: relPath, kind, mode, perm: st.mode & 0o7777, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino };
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

function ignored(base: Ignore, rules: IgnoreRules, relPath: string, isDir: boolean): boolean {
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

export { formatMb };

/** Two lists of what a snapshot left out, one entry a path (the later wins). */
export function mergeSkipped(a: Skipped[], b: Skipped[]): Skipped[] {
  const seen = new Map<string, Skipped>();
  for (const s of [...a, ...b]) seen.set(s.path, s);
  return [...seen.values()];
}
