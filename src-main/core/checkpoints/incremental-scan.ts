import { rulesFor, scanOne, type IgnoreRules, type ScanLimits, type ScanResult } from './workspace-scan';

/**
 * The previous scan brought up to date for the paths the change journal named (change-journal.ts):
 * each named path is looked at again — a folder whole — and everything else is taken as it was. Null
 * when only a whole walk is right: a .gitignore changed, so what is ignored may have changed anywhere.
 */
export interface Rescan {
  scan: ScanResult;
  /** The paths looked at again (none inside another). */
  tops: string[];
  /** Paths recorded before, under those, that are not there any more. */
  gone: string[];
}

export function rescanPaths(root: string, previous: ScanResult, dirty: string[], limits: ScanLimits): Rescan | null {
  if (dirty.some((p) => p === '.gitignore' || p.endsWith('/.gitignore'))) return null;
  if (dirty.includes('')) return null;
  // A change inside an ignored folder looks at that folder again whole: when it is recorded, its caps
  // (workspace-scan.ts) are the whole folder's, so a part of it alone cannot be judged; when it is
  // only fingerprinted, the change moved the fingerprint.
  const keptIgnored = new Set([...previous.ignoredKept, ...previous.unkept.filter((u) => u.kind === 'dir').map((u) => u.path)]);
  const named = new Set(dirty.map((p) => topIgnored(keptIgnored, p) ?? p));
  // Only the topmost of nested paths: a folder looked at again covers what is inside it.
  const tops = [...named].filter((p) => !ancestors(p).some((a) => named.has(a)));
  const topSet = new Set(tops);
  const under = (p: string) => topSet.has(p) || ancestors(p).some((a) => topSet.has(a));
  const removed: string[] = [];
  const kept = previous.entries.filter((e) => (under(e.path) ? (removed.push(e.path), false) : true));
  const out: ScanResult = {
    entries: kept,
    skipped: previous.skipped.filter((s) => !under(s.path)),
    unkept: previous.unkept.filter((u) => !under(u.path)),
    ignoredKept: previous.ignoredKept.filter((p) => !under(p)),
  };
  const keptCount = kept.length;
  const folders = new Set(out.entries.filter((e) => e.kind === 'dir').map((e) => e.path));
  const rules = new Map<string, IgnoreRules>();
  for (const p of tops.sort()) {
    const parent = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '';
    // Inside a folder the checkpoint does not record (ignored, or gone): nothing to look at.
    if (parent !== '' && !folders.has(parent)) continue;
    let r = rules.get(parent);
    if (!r) rules.set(parent, (r = rulesFor(root, parent)));
    const before = out.entries.length;
    scanOne(root, p, r, limits, out);
    for (const e of out.entries.slice(before)) if (e.kind === 'dir') folders.add(e.path);
  }
  const present = new Set(out.entries.slice(keptCount).map((e) => e.path));
  return { scan: out, tops, gone: removed.filter((p) => !present.has(p)) };
}

/** The topmost ignored folder (recorded whole or fingerprinted) that holds `p`, if any. */
function topIgnored(kept: ReadonlySet<string>, p: string): string | undefined {
  if (kept.size === 0) return undefined;
  return ancestors(p).find((a) => kept.has(a));
}

function ancestors(p: string): string[] {
  const out: string[] = [];
  for (let i = p.indexOf('/'); i >= 0; i = p.indexOf('/', i + 1)) out.push(p.slice(0, i));
  return out;
}
