import type { Stats } from 'node:fs';
import ignore from 'ignore';
import { formatMb } from './format-size';

/**
 * Ignored paths in a checkpoint (docs/checkpoints.md, issue 26 item 1). A `.gitignore` says what git
 * should not track, not what a person can afford to lose: `rm -rf *` in a repository deletes the
 * ignored `build/out.o`, `debug.log` and, with `.[!.]*`, `.env` too. So:
 * - an ignored file no larger than the cap for ignored files (Settings → Checkpoints) is recorded like
 *   any other, and a rewind puts it back byte for byte, modes included; secrets-bearing files (`.env`,
 *   `.env.*`, keys…) are recorded whatever that cap, up to SECRETS_MAX_BYTES;
 * - an ignored folder is recorded whole while it is small (workspace-scan.ts: IGNORED_FOLDER_MAX_*);
 *   a bigger one is never walked (node_modules/, .venv/, a big build/ would make every checkpoint as
 *   slow as the walk), and an ignored file over its cap is not read: each is kept only as a
 *   fingerprint (kind, size, times, inode) beside the tree. When the fingerprint changed or the path
 *   went between a cell's two checkpoints, the cell lists it by name as something a rewind cannot
 *   put back, and a rewind names the ones it leaves.
 * The walk stops at an ignored folder, so it costs one lstat per ignored name in a recorded folder,
 * which the walk made already; with the change journal only the paths it names are looked at again.
 */

export interface ScanLimits {
  /** Files larger than this are never recorded ("Largest file recorded"). */
  maxFileBytes: number;
  /** Ignored files larger than this are not recorded (secrets-bearing ones excepted). */
  ignoredMaxBytes: number;
}

/** A path present in the workspace but not in the checkpoint's tree, as last seen. */
export interface Unkept {
  path: string;
  kind: 'file' | 'dir' | 'other';
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  /** Why it is not kept, for the person ("an ignored folder: its contents are not kept"). */
  why: string;
}

export interface Unrestorable {
  path: string;
  change: 'created' | 'changed' | 'deleted';
  reason: string;
}

/** Secrets-bearing files are kept whatever the cap for ignored files, up to this. */
export const SECRETS_MAX_BYTES = 10 * 1024 * 1024;

/** How many paths a cell or a rewind names; the count says how many there were in all. */
export const MAX_LISTED = 50;

/**
 * Names that usually hold keys and passwords, and are usually gitignored for that reason: losing one
 * to an `rm` is losing credentials that may exist nowhere else.
 */
const SECRETS = ignore().add([
  '.env',
  '.env.*',
  '*.env',
  '.envrc',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '*.pem',
  '*.key',
  'id_rsa*',
  'id_ecdsa*',
  'id_ed25519*',
  'credentials.json',
  'secrets.*',
]);

export function isSecretsFile(relPath: string): boolean {
  return SECRETS.ignores(relPath);
}

/**
 * Whether an ignored path is recorded: 'file' or 'symlink' (a link is its text, a few bytes) when it
 * is, else null, with its fingerprint added to `unkept`.
 */
export function keepIgnored(
  relPath: string,
  st: Stats,
  limits: ScanLimits,
  unkept: Unkept[],
  folderWhy = 'an ignored folder: its contents are not kept',
): 'file' | 'symlink' | null {
  const print = (kind: Unkept['kind'], why: string): null => {
    unkept.push({ path: relPath, kind, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, why });
    return null;
  };
  if (st.isSymbolicLink()) return 'symlink';
  if (st.isDirectory()) return print('dir', folderWhy);
  if (!st.isFile()) return print('other', 'ignored, and not a file, folder or symlink');
  if (isSecretsFile(relPath)) {
    const cap = Math.min(SECRETS_MAX_BYTES, Math.max(limits.maxFileBytes, limits.ignoredMaxBytes));
    return st.size <= cap ? 'file' : print('file', `a secrets file larger than the ${formatMb(cap)} kept (${formatMb(st.size)})`);
  }
  const cap = Math.min(limits.ignoredMaxBytes, limits.maxFileBytes);
  return st.size <= cap
    ? 'file'
    : print('file', `ignored, and larger than the ${formatMb(cap)} cap for ignored files (${formatMb(st.size)})`);
}

function sameFingerprint(a: Unkept, b: Unkept): boolean {
  return a.kind === b.kind && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino;
}

/**
 * What a cell did to paths its checkpoints could not keep: changed (the fingerprint moved, or the path
 * is now recorded but what it was before is not), deleted, or created (a rewind leaves it).
 */
export function unkeptChanges(before: readonly Unkept[], after: readonly Unkept[], afterPaths: ReadonlySet<string>): Unrestorable[] {
  const now = new Map(after.map((u) => [u.path, u]));
  const was = new Map(before.map((u) => [u.path, u]));
  const out: Unrestorable[] = [];
  for (const b of before) {
    const a = now.get(b.path);
    if (a && sameFingerprint(a, b)) continue;
    const change = a || afterPaths.has(b.path) ? 'changed' : 'deleted';
    out.push({ path: b.path, change, reason: `${change}; ${b.why}, so a rewind cannot put back what it was` });
  }
  for (const a of after)
    if (!was.has(a.path)) out.push({ path: a.path, change: 'created', reason: `created; ${a.why}, so a rewind leaves it as it is` });
  return out.sort((x, y) => x.path.localeCompare(y.path));
}

/** Whether `p` is one of `paths` or inside one of them. */
export function insideAny(paths: ReadonlySet<string>, p: string): boolean {
  if (paths.has(p)) return true;
  for (let i = p.indexOf('/'); i >= 0; i = p.indexOf('/', i + 1)) if (paths.has(p.slice(0, i))) return true;
  return false;
}

/** The fingerprints as a blob's text ('' for none): JSON, since a path may hold any byte but NUL and '/'. */
export function encodeUnkept(list: readonly Unkept[]): string {
  return list.length === 0 ? '' : JSON.stringify(list.map((u) => [u.path, u.kind, u.size, u.mtimeMs, u.ctimeMs, u.ino, u.why]));
}

export function parseUnkept(text: string): Unkept[] {
  if (!text) return [];
  const rows = JSON.parse(text) as unknown;
  if (!Array.isArray(rows)) return [];
  const out: Unkept[] = [];
  for (const row of rows) {
    if (!Array.isArray(row) || typeof row[0] !== 'string') continue;
    const [path, kind, size, mtimeMs, ctimeMs, ino, why] = row as [string, Unkept['kind'], number, number, number, number, string];
    out.push({ path, kind, size, mtimeMs, ctimeMs, ino, why: String(why) });
  }
  return out;
}
