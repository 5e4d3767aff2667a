import { accessSync, constants, lstatSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

// The last PATH lookup of a name, kept while nothing that decided it changed (issue 37). Python is
// looked for again at every run so that what the last cell did (a `.venv`, a `python3` put earlier on
// PATH) counts at the next; walking PATH through the thread pool cost a dozen `access` calls and as
// many wake-ups of main per warm run. What decides a lookup is: each folder walked before the hit (a
// program added to, removed from or renamed in a folder changes that folder's mtime and ctime; a
// folder made where there was none, or a link retargeted, is another identity) and the hit itself
// (its link and what it leads to: a chmod, a replacement or a retargeted link change its identity).
// A kept lookup is checked with one synchronous stat of each: no thread pool, no await.

interface Kept {
  found: string;
  /** Each path that decided the lookup, with its identity when the lookup was made. */
  checks: { path: string; follow: boolean; id: string }[];
}

const kept = new Map<string, Kept>();
const MAX_KEPT = 64;
/**
 * Timestamps move in clock ticks (up to 10 ms): a change within the tick of the identity taken could
 * leave the same times, so an identity this recent is never kept (as hook-config-cache.ts does).
 */
const SETTLED_MS = 50;
let clock: () => number = Date.now;
/**
 * A walk slower than this went through a slow folder (a network mount that takes seconds to answer):
 * never checked synchronously, where it would hold main's event loop. Well above what a busy
 * machine's thread pool adds to a local walk, which must still be kept.
 */
let slowWalkMs = 1_000;

/**
 * The wall clock identities' times are compared with, and the walk time above which nothing is kept
 * (tests move the clock past SETTLED_MS, and keep walks however slow a loaded machine makes them).
 */
export function setLookupClock(now: () => number = Date.now, slowMs = 1_000): void {
  clock = now;
  slowWalkMs = slowMs;
}

function identity(path: string, follow: boolean): string {
  try {
    const st = follow ? statSync(path) : lstatSync(path);
    return `${st.dev}:${st.ino}:${st.mode}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  } catch (err) {
    return `-${(err as NodeJS.ErrnoException).code ?? ''}`;
  }
}

/** The kept answer for `name` on `path` when every identity it depended on is unchanged, else undefined. */
export function keptLookup(name: string, path: string): string | undefined {
  const entry = kept.get(`${name}\0${path}`);
  if (!entry) return undefined;
  for (const check of entry.checks) if (identity(check.path, check.follow) !== check.id) return undefined;
  return entry.found;
}

/** The folders of `path` that a lookup walks, in order (relative entries are never walked). */
export function walkedFolders(path: string): string[] {
  return path.split(delimiter).filter((dir) => dir && isAbsolute(dir));
}

function executableNow(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Keeps `found` (the answer of a walk that took `tookMs`) for `name` on `path`: identities are taken
 * first, then the walk is repeated up to the hit, so a change made during the walk either shows in
 * an identity or makes the answers differ (then nothing is kept). Only for plain names and no
 * extensions to try (Windows' PATHEXT walk is not kept).
 */
export function keepLookup(name: string, path: string, found: string, tookMs: number): void {
  if (tookMs > slowWalkMs || process.platform === 'win32' || isAbsolute(name)) return;
  const folders = walkedFolders(path);
  const at = folders.findIndex((dir) => join(dir, name) === found);
  if (at < 0) return;
  const checks = [
    ...folders.slice(0, at).map((dir) => ({ path: dir, follow: true })),
    { path: found, follow: false },
    { path: found, follow: true },
  ].map((c) => ({ ...c, id: identity(c.path, c.follow) }));
  // An earlier candidate that exists but is not executable decides too (a chmod +x changes only it).
  for (const dir of folders.slice(0, at)) {
    const candidate = join(dir, name);
    const id = identity(candidate, true);
    if (id !== '-ENOENT' && id !== '-ENOTDIR') checks.push({ path: candidate, follow: true, id });
  }
  if (checks.some((c) => racy(c.id))) return;
  const again = folders.slice(0, at + 1).find((dir) => executableNow(join(dir, name)));
  if (again === undefined || join(again, name) !== found) return;
  if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value as string);
  kept.set(`${name}\0${path}`, { found, checks });
}

function racy(id: string): boolean {
  const parts = id.split(':');
  if (parts.length < 6) return false;
  const newest = Math.max(Number(parts[4]), Number(parts[5]));
  return clock() - newest < SETTLED_MS;
}

/** What a kept lookup would answer without its identities checked (tests: the twin of a change). */
export function keptUnchecked(name: string, path: string): string | undefined {
  return kept.get(`${name}\0${path}`)?.found;
}

/** Forgets every kept lookup (tests; a new process starts with none). */
export function forgetLookups(): void {
  kept.clear();
}
