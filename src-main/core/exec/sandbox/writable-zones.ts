import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { isAbsolute, join, resolve, sep } from 'node:path';

// The places sandboxed code can write: the workspace, read-write extra paths, and the session's
// private folder. The app never runs, loads, sources or follows anything there from outside the
// sandbox (docs/sandbox.md, "What the app itself runs"); these helpers tell whether a path does.

/** The folders sandboxed code can write (the workspace, read-write extra paths…), as given and as real paths. */
export function writableZones(writable: readonly string[]): string[] {
  const zones = new Set<string>();
  for (const path of writable) {
    zones.add(resolve(path));
    const real = realOrNull(path);
    if (real) zones.add(real);
  }
  return [...zones];
}

/**
 * True when `path`, or any symbolic link met while resolving it, or what it finally names, lies in
 * one of the zones: sandboxed code could then change what the path runs or opens at any moment.
 * Decided from the links themselves (lstat/readlink one component at a time), not from realpath
 * alone, so a link outside that points into a zone and back out is caught too. `links` may carry
 * what was seen a moment ago in the same check (never across runs: a link may change at any time).
 */
export function reachesInto(path: string, zones: readonly string[], links: LinkMemo = new Map()): boolean {
  if (!isAbsolute(path)) return true;
  const inZone = (p: string): boolean => zones.some((zone) => isInside(p, zone));
  let pending = resolve(path).split(sep).filter(Boolean);
  let current: string = sep;
  for (let hops = 0; pending.length > 0;) {
    const name = pending.shift() as string;
    const next = join(current, name);
    if (inZone(next)) return true;
    let link = links.get(next);
    if (link === undefined) links.set(next, (link = linkAt(next)));
    if (link === null) {
      current = next;
      continue;
    }
    if (++hops > 40) return true;
    const target = isAbsolute(link) ? resolve(link) : resolve(current, link);
    if (inZone(target)) return true;
    pending = [...target.split(sep).filter(Boolean), ...pending];
    current = sep;
  }
  return inZone(current);
}

/**
 * What each path met on the way was (a link's target, or null: not a link, or missing), for one
 * moment's checks: a link's target is walked from the root again, and one detection checks several
 * paths under the same folders (a shim, then the interpreter it names), each part looked at once.
 */
export type LinkMemo = Map<string, string | null>;

function linkAt(path: string): string | null {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : null;
  } catch {
    // Missing: nothing further to resolve; the lexical path alone decides.
    return null;
  }
}

export function isInside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
