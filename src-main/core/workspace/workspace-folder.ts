import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isInside } from './confine';
import { errorMessage } from '@contract/error-message';

/** A folder the user asked to work in that cannot be one; the message says which check failed. */
export class WorkspaceFolderError extends Error {}

/**
 * Checks a folder the user chose for a conversation (the app, browser mode and `oi --workspace` share
 * this) and returns it normalised. Relative paths are refused: main's working directory means nothing
 * to the user, and `~` is a shell's expansion, not a path. The app's data folder itself, its
 * conversations/ and its workspaces/ (all conversations' folders at once) are refused too: the code and
 * the file panel would reach the saved conversations or the other conversations' files.
 */
export async function checkWorkspaceFolder(given: string, app: { dataDir: string }): Promise<string> {
  if (given.includes('\0')) throw new WorkspaceFolderError('the folder path contains a NUL character');
  if (given.startsWith('~'))
    throw new WorkspaceFolderError(
      `"${given}" starts with ~, which only a shell expands: give the full path (for example ${path.join(os.homedir(), given.slice(1))})`,
    );
  if (!path.isAbsolute(given)) throw new WorkspaceFolderError(`"${given}" is not an absolute path: give the folder's full path`);
  // resolve() also drops a trailing separator and folds ./ and ../ in a full path.
  const folder = path.resolve(given);
  let info;
  try {
    info = await stat(folder);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new WorkspaceFolderError(`there is no folder at ${folder}`, { cause: err });
    if (code === 'ENOTDIR') throw new WorkspaceFolderError(`${folder} is not a folder: a part of the path is a file`, { cause: err });
    if (code === 'EACCES' || code === 'EPERM')
      throw new WorkspaceFolderError(`${folder} cannot be reached: permission denied on the way to it`, { cause: err });
    throw new WorkspaceFolderError(`${folder} cannot be used: ${errorMessage(err)}`, { cause: err });
  }
  if (!info.isDirectory()) throw new WorkspaceFolderError(`${folder} is a file, not a folder`);
  const missing: string[] = [];
  // X on a folder is "may enter": without it nothing inside can be listed or opened.
  for (const [mode, what] of [
    [constants.R_OK, 'read'],
    [constants.W_OK, 'written'],
    [constants.X_OK, 'entered'],
  ] as const) {
    if (
      !(await access(folder, mode).then(
        () => true,
        () => false,
      ))
    )
      missing.push(what);
  }
  if (missing.length > 0)
    throw new WorkspaceFolderError(
      `${folder} cannot be ${missing.join(' or ')} by this user; the code runs there and writes its files there`,
    );
  // Compared as real paths, so a link to the data folder is no way around it.
  const [real, data] = await Promise.all([realpath(folder), realpath(app.dataDir).catch(() => path.resolve(app.dataDir))]);
  if (real === data || real === path.join(data, 'workspaces') || isInside(path.join(data, 'conversations'), real)) {
    throw new WorkspaceFolderError(
      `${folder} is the app's own data (saved conversations and settings, or every conversation's folder); choose another folder`,
    );
  }
  return folder;
}
