import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { ConversationSummary } from '@contract';
import { removeBeneath } from '../fs/no-follow-open';
import { APP_DIR } from '../workspace/workspace-tree';

// Deleting a conversation's files is only ever done to the folder the app made for it. A folder the
// user chose (their project, their home) or the shared workspace root holds things the app did not
// put there, so "delete its files" is refused for those rather than trusted to a checkbox.

export interface ManagedFolderFacts {
  /** `<data dir>/workspaces/<id>`: what the app would have made for this conversation. */
  managedPath: string;
  /** The `workspaceRoot` setting: every new conversation shares it. */
  workspaceRoot: string | null;
  /** The other conversations: one that also works in the folder keeps it. */
  others: ConversationSummary[];
}

/** Why the conversation's folder is not the app's to delete, or null when it is. */
export async function whyNotManaged(
  conv: Pick<ConversationSummary, 'id' | 'workspace'>,
  facts: ManagedFolderFacts,
): Promise<string | null> {
  const folder = conv.workspace;
  if (facts.workspaceRoot !== null && maybeSamePath(folder, facts.workspaceRoot)) {
    return `its folder ${folder} is the shared workspace root from the settings, where other conversations work too; the app only deletes the folders it made for one conversation`;
  }
  if (path.resolve(folder) !== path.resolve(facts.managedPath)) {
    return `its folder ${folder} was chosen, not made by the app; the app only deletes the folder it made for a conversation (${facts.managedPath}). Delete the files yourself if you mean to`;
  }
  const sharing = facts.others.find((other) => other.id !== conv.id && maybeSamePath(other.workspace, folder));
  if (sharing) return `the conversation “${sharing.title}” also works in ${folder}`;
  const info = await lstat(folder).catch(() => null);
  // Someone replaced the folder by a link: what it points to was never the app's.
  if (info?.isSymbolicLink()) return `${folder} is a symbolic link, not the folder the app made`;
  return null;
}

/** Regular files (and links) under `root`, not counting the app's .oi folder, stopping at `cap`. */
export async function countFiles(root: string, cap: number): Promise<{ files: number; capped: boolean }> {
  let files = 0;
  const folders = [root];
  for (let dir = folders.pop(); dir !== undefined; dir = folders.pop()) {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (dir === root && entry.name === APP_DIR) continue;
      // Dirent types come from lstat: a link to a folder is counted, never followed.
      if (entry.isDirectory()) folders.push(path.join(dir, entry.name));
      else if (++files > cap) return { files: cap, capped: true };
    }
  }
  return { files, capped: false };
}

/**
 * Removes the folder and everything in it; links inside are removed, never followed — also one the
 * code swaps in for a folder while this runs (no-follow-open.ts).
 */
export async function removeFolder(folder: string): Promise<void> {
  // Retries: on Windows a process that just exited may hold a handle for a moment.
  for (let attempt = 0; ; attempt++) {
    try {
      return await removeBeneath(path.dirname(folder), [path.basename(folder)]);
    } catch (err) {
      if (attempt >= 3 || !['EBUSY', 'EPERM', 'ENOTEMPTY'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
      await new Promise((r) => setTimeout(r, 100 * (attempt + 1)));
    }
  }
}

/** Loose on purpose (case-insensitive where file systems usually are): used only to refuse more. */
function maybeSamePath(a: string, b: string): boolean {
  const [x, y] = [path.resolve(a), path.resolve(b)];
  return process.platform === 'win32' || process.platform === 'darwin' ? x.toLowerCase() === y.toLowerCase() : x === y;
}
