import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { isInside, WorkspacePathError, workspaceSegments } from './confine';

/** Links followed in one path before giving up (Linux's own limit is 40). */
const MAX_LINKS = 40;

export interface ResolvedPath {
  /** The workspace's real root (trusted: the folder the app made or the user chose). */
  realRoot: string;
  /** The names under realRoot that the path leads to, with no symbolic link among them (when checked). */
  segments: string[];
}

/**
 * Maps a path the UI names to the names, under the real root, of what it leads to: a symbolic link
 * inside the workspace (a model's `latest.csv -> runs/7.csv`) is resolved here, lexically, and only
 * while it stays inside; a link leading outside is refused. This is a translation, not the check that
 * holds: the caller then opens the segments with no-follow-open.ts, which refuses a link at ANY
 * component, so a folder swapped for a link after this ran makes the open fail instead of leaving.
 * A missing name ends the walk: the rest is returned as named (rename targets, or a 404 on open).
 */
export async function resolveInWorkspace(root: string, rel: string, opts: { followFinal: boolean }): Promise<ResolvedPath> {
  const realRoot = await realpath(root);
  const givenRoot = path.resolve(root);
  let pending = workspaceSegments(rel);
  let done: string[] = [];
  let links = 0;
  while (pending.length > 0) {
    const [name = '', ...rest] = pending;
    pending = rest;
    const here = path.join(realRoot, ...done, name);
    const st = await lstat(here).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return null;
      throw err;
    });
    if (!st) return { realRoot, segments: [...done, name, ...pending] };
    if (!st.isSymbolicLink() || (pending.length === 0 && !opts.followFinal)) {
      done.push(name);
      continue;
    }
    if (++links > MAX_LINKS) throw new WorkspacePathError(`"${rel}" goes through too many symbolic links`);
    const target = await readlink(here).catch((err: NodeJS.ErrnoException) => {
      // No longer a link (swapped back since the lstat): look at this name again.
      if (err.code === 'EINVAL' || err.code === 'ENOENT') return null;
      throw err;
    });
    if (target === null) {
      pending = [name, ...pending];
      continue;
    }
    // `done` holds no links, so joining and normalising `..` lexically is what the kernel would do.
    const lands = path.isAbsolute(target) ? path.normalize(target) : path.join(realRoot, ...done, target);
    const under = segmentsUnder(realRoot, lands) ?? segmentsUnder(givenRoot, lands);
    if (under === null) {
      throw new WorkspacePathError(
        pending.length === 0
          ? `"${rel}" is a symbolic link to a place outside the workspace`
          : `"${rel}" leads outside the workspace through a symbolic link`,
      );
    }
    pending = [...under, ...pending];
    done = [];
  }
  return { realRoot, segments: done };
}

function segmentsUnder(root: string, candidate: string): string[] | null {
  if (!isInside(root, candidate)) return null;
  return path
    .relative(root, candidate)
    .split(path.sep)
    .filter((s) => s !== '' && s !== '.');
}
