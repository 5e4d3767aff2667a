import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { openWorkspaceFile, readOpened } from './open-workspace-file';

/**
 * Copies a workspace file somewhere the user chose (the desktop app's Save dialog). The file is
 * confined and opened before `chooseDestination` is asked, so nobody is asked where to save a folder
 * or a path outside the workspace, and the bytes copied are those of the file that was checked.
 * The copy goes to a temporary name beside the destination and is renamed into place: a failure
 * leaves no half-written file, and choosing the source itself as destination cannot truncate it.
 * Returns null when the user cancelled.
 */
export async function saveWorkspaceFileCopy(
  root: string,
  rel: string,
  chooseDestination: (suggestedName: string) => Promise<string | null>,
): Promise<{ savedTo: string; bytes: number } | null> {
  const file = await openWorkspaceFile(root, rel);
  try {
    const chosen = await chooseDestination(file.name);
    if (!chosen) return null;
    const dest = path.resolve(chosen);
    const temp = path.join(path.dirname(dest), `.${path.basename(dest)}.${randomBytes(6).toString('hex')}.part`);
    try {
      await pipeline(readOpened(file), createWriteStream(temp, { flags: 'wx' }));
      await rename(temp, dest);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    return { savedTo: dest, bytes: file.size };
  } finally {
    await file.handle.close();
  }
}
