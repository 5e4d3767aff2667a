import { lstatSync } from 'node:fs';

/**
 * What a cache of files read by path can compare before trusting what it kept: lstat (device, inode,
 * type, size, mtime, ctime) of each path, '-' for one absent, in a few synchronous system calls.
 * - A file edited in place changes its ctime (which nobody can set back); one replaced by another,
 *   created or removed changes its inode or presence; a link put in its place, its type.
 * - Timestamps move in clock ticks (up to 10 ms), so two writes within one tick can leave the same
 *   times: a path changed less than SETTLED_MS before `now` gives null (cannot tell: read it again),
 *   as git treats a "racily clean" file.
 */
export const SETTLED_MS = 50;

export function entriesIdentity(paths: readonly string[], now: number): string | null {
  const settledBefore = BigInt(Math.floor(now - SETTLED_MS)) * 1_000_000n;
  const parts: string[] = [];
  for (const entry of paths) {
    let st;
    try {
      st = lstatSync(entry, { bigint: true, throwIfNoEntry: false });
    } catch {
      return null;
    }
    if (!st) {
      parts.push('-');
      continue;
    }
    if (st.ctimeNs > settledBefore || st.mtimeNs > settledBefore) return null;
    parts.push(`${st.dev}:${st.ino}:${st.mode}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`);
  }
  return parts.join('\n');
}
