import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';

/** A path the UI asked for that would leave the workspace, or that no OS could hold. */
export class WorkspacePathError extends Error {}

// Names Windows reserves in every folder whatever the extension ("nul.txt" is the NUL device). Refused
// on every OS so a workspace made here also opens there, and so a request can never reach a device.
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(\..*)?$/i;

/**
 * Splits a workspace-relative path into its segments, refusing what could leave the root or confuse an
 * OS: absolute paths, drive letters, UNC paths, `..`, NUL, and Windows device names.
 */
export function workspaceSegments(rel: string): string[] {
  if (rel.includes('\0')) throw new WorkspacePathError(`the path ${JSON.stringify(rel)} contains a NUL character`);
  if (rel.startsWith('/') || rel.startsWith('\\') || /^[A-Za-z]:/.test(rel)) {
    throw new WorkspacePathError(`"${rel}" is an absolute path; give a path inside the workspace`);
  }
  // Backslash is a separator on Windows and a legal (confusing) name character elsewhere; treating it
  // as a separator everywhere keeps the check the same on every OS.
  const segments = rel.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
  if (segments.length === 0) throw new WorkspacePathError('the path is empty');
  for (const segment of segments) {
    if (segment === '..') throw new WorkspacePathError(`"${rel}" goes above the workspace (..)`);
    const bare = segment.replace(/[. ]+$/, '');
    if (WINDOWS_DEVICE.test(bare) || WINDOWS_DEVICE.test(segment))
      throw new WorkspacePathError(`"${segment}" is a reserved device name on Windows`);
    if (process.platform === 'win32' && /[<>:"|?*]/.test(segment))
      throw new WorkspacePathError(`"${segment}" has a character Windows does not allow in names`);
  }
  return segments;
}

export interface ConfineOptions {
  /**
   * Resolve a symlink at the end of the path too (reading, previewing). Off for rename and delete,
   * which act on the link itself and never on what it points to.
   */
  followFinal: boolean;
}

/**
 * The absolute path for `rel` inside `root`, after checking that neither the path nor any symlink on
 * the way leads outside the (real) root. The final component may not exist yet (rename targets).
 */
export async function confine(root: string, rel: string, opts: ConfineOptions): Promise<string> {
  const segments = workspaceSegments(rel);
  const realRoot = await realpath(root);
  const target = path.join(realRoot, ...segments);
  const parent = path.dirname(target);
  const realParent = await realpathOfExisting(parent);
  if (!isInside(realRoot, realParent)) throw new WorkspacePathError(`"${rel}" leads outside the workspace through a symbolic link`);
  const local = path.join(realParent, path.basename(target));
  if (!opts.followFinal) return local;
  let final: string;
  try {
    final = await realpath(local);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      // A dangling link must not become a way to create files outside on a later write.
      const stat = await lstat(local).catch(() => null);
      if (stat?.isSymbolicLink()) throw new WorkspacePathError(`"${rel}" is a symbolic link to something that does not exist`);
      return local;
    }
    throw err;
  }
  if (!isInside(realRoot, final)) throw new WorkspacePathError(`"${rel}" is a symbolic link to a place outside the workspace`);
  return final;
}

/** realpath of the nearest existing ancestor, with the missing tail joined back on. */
async function realpathOfExisting(p: string): Promise<string> {
  const missing: string[] = [];
  let current = p;
  for (;;) {
    try {
      return path.join(await realpath(current), ...missing.reverse());
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      const up = path.dirname(current);
      if (up === current) throw err;
      missing.push(path.basename(current));
      current = up;
    }
  }
}

export function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}
