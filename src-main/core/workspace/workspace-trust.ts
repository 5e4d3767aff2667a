import { existsSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';

// Whether the person trusts a workspace's own files (AGENTS.md, skills, saved commands, hooks) to
// reach the model or run: they trust a folder (the repository root, else the workspace), and with it
// what lies inside. Shared by project instructions, skills, commands and hooks, so it sits below them.

/**
 * The workspace's real path, the folders whose files apply (repository root first), the folder a
 * person trusts to let them in, and whether they do. Skills, saved commands and hooks share this trust.
 */
export async function workspaceTrust(
  workspace: string,
  trustedFolders: readonly string[],
): Promise<{ real: string; folders: string[]; trustFolder: string; trusted: boolean }> {
  const real = await realpath(workspace).catch(() => path.resolve(workspace));
  const folders = folderChain(real);
  const trustFolder = folders[0] ?? real;
  return { real, folders, trustFolder, trusted: isInsideTrusted(trustFolder, trustedFolders) };
}

/** Trusting a folder trusts what is inside it (a repository's subfolders), never its parents. */
export function isInsideTrusted(folder: string, trusted: readonly string[]): boolean {
  return trusted.some((t) => folder === t || folder.startsWith(t.endsWith(path.sep) ? t : t + path.sep));
}

/**
 * The folders whose AGENTS.md apply, from the repository root (the nearest folder up that holds
 * `.git`) down to the workspace; the workspace alone when it is in no repository (a parent folder of
 * an unrelated tree is nobody's instructions).
 */
export function folderChain(workspace: string): string[] {
  const chain = [workspace];
  for (let folder = workspace; ;) {
    if (existsSync(path.join(folder, '.git'))) return chain.reverse();
    const parent = path.dirname(folder);
    if (parent === folder) return [workspace];
    folder = parent;
    chain.push(folder);
  }
}

/** The folder a person trusts to let a workspace's files in: its repository root, else the workspace (real paths). */
export async function trustFolderOf(workspace: string): Promise<string> {
  return (await workspaceTrust(workspace, [])).trustFolder;
}
