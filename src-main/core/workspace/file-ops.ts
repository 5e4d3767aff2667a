import { lstat, mkdir, realpath, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { confine, toWorkspacePath, WorkspacePathError } from './confine';
import { APP_DIR } from './workspace-tree';

/**
 * Renames (or moves) inside the workspace. Never overwrites: a rename that would silently replace
 * another file is refused, because the user did not ask to lose that file.
 */
export async function renameInWorkspace(root: string, from: string, to: string): Promise<string> {
  const src = await confine(root, from, { followFinal: false });
  const dest = await confine(root, to, { followFinal: false });
  refuseAppDir(root, src);
  refuseAppDir(root, dest);
  await lstat(src).catch(() => {
    throw new WorkspacePathError(`"${from}" does not exist`);
  });
  const existing = await lstat(dest).catch(() => null);
  if (existing) throw new WorkspacePathError(`"${to}" already exists; delete or rename it first`);
  if (dest.startsWith(src + path.sep)) throw new WorkspacePathError(`cannot move "${from}" into itself`);
  await mkdir(path.dirname(dest), { recursive: true });
  await rename(src, dest);
  return toWorkspacePath(await realRootOf(root), dest);
}

/** Deletes a file, link or folder (with its contents). A link is removed, never what it points to. */
export async function deleteInWorkspace(root: string, rel: string): Promise<void> {
  const target = await confine(root, rel, { followFinal: false });
  if (target === (await realRootOf(root))) throw new WorkspacePathError('the workspace itself cannot be deleted from here');
  await lstat(target).catch(() => {
    throw new WorkspacePathError(`"${rel}" does not exist`);
  });
  await rm(target, { recursive: true, force: false });
}

function refuseAppDir(root: string, abs: string): void {
  const rel = path.relative(root, abs).split(path.sep)[0];
  if (rel === APP_DIR) throw new WorkspacePathError(`${APP_DIR}/ holds the app's own files`);
}

function realRootOf(root: string): Promise<string> {
  return realpath(root);
}
