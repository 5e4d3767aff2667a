import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { WorkspacePathError } from './confine';
import { NoFollowError, removeBeneath, renameBeneath } from '../fs/no-follow-open';
import { resolveInWorkspace } from './resolve-in-workspace';
import { APP_DIR } from './workspace-tree';

// Both act on names reached without following a link at any component (no-follow-open.ts): code in
// the workspace swapping a folder for a link mid-request makes the request fail, never act elsewhere.

/**
 * Renames (or moves) inside the workspace. Never overwrites: a rename that would silently replace
 * another file is refused, because the user did not ask to lose that file.
 */
export async function renameInWorkspace(root: string, from: string, to: string): Promise<string> {
  const src = await resolveInWorkspace(root, from, { followFinal: false });
  const dest = await resolveInWorkspace(root, to, { followFinal: false });
  refuseAppDir(src.segments);
  refuseAppDir(dest.segments);
  if (!(await exists(src.realRoot, src.segments))) throw new WorkspacePathError(`"${from}" does not exist`);
  if (dest.segments.length > src.segments.length && src.segments.every((s, i) => dest.segments[i] === s)) {
    throw new WorkspacePathError(`cannot move "${from}" into itself`);
  }
  try {
    await renameBeneath(src.realRoot, src.segments, dest.segments, { create: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new WorkspacePathError(`"${to}" already exists; delete or rename it first`);
    if (code === 'ENOENT') throw new WorkspacePathError(`"${from}" does not exist`);
    if (err instanceof NoFollowError) throw new WorkspacePathError(`cannot rename "${from}" to "${to}": ${err.message}`);
    throw err;
  }
  return dest.segments.join('/');
}

/** Deletes a file, link or folder (with its contents). A link is removed, never what it points to. */
export async function deleteInWorkspace(root: string, rel: string): Promise<void> {
  const target = await resolveInWorkspace(root, rel, { followFinal: false });
  if (target.segments.length === 0) throw new WorkspacePathError('the workspace itself cannot be deleted from here');
  if (!(await exists(target.realRoot, target.segments))) throw new WorkspacePathError(`"${rel}" does not exist`);
  try {
    await removeBeneath(target.realRoot, target.segments);
  } catch (err) {
    if (err instanceof NoFollowError) throw new WorkspacePathError(`cannot delete "${rel}": ${err.message}`);
    throw err;
  }
}

function refuseAppDir(segments: readonly string[]): void {
  if (segments[0] === APP_DIR) throw new WorkspacePathError(`${APP_DIR}/ holds the app's own files`);
}

/** For the message only: the operation itself is what refuses links. */
async function exists(realRoot: string, segments: readonly string[]): Promise<boolean> {
  return lstat(path.join(realRoot, ...segments)).then(
    () => true,
    () => false,
  );
}
