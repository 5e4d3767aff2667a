import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { openBeneath } from '../fs/no-follow-open';
import type { HeldFolders } from './held-folders';

/**
 * Files go into the store as git blobs written here, not by `git hash-object`: git opens a path and
 * follows any symbolic link on it, and a workspace is written by code we run — sandboxed code could
 * swap a folder for a link to ~/.ssh between the scan and the read, and the store (then a rewind)
 * would carry a file from outside the sandbox into it. Each file is opened here without following a
 * link at any component (no-follow-open.ts) and stored in git's loose-object format (the id is the
 * SHA-1 of "blob <size>\0" and the content; the file is that, zlib-deflated), which git reads, packs
 * and prunes as its own. Everything else about the store goes through the git command.
 */
export async function writeWorkspaceBlob(
  gitDir: string,
  root: string,
  relPath: string,
  folders?: HeldFolders,
): Promise<{ sha: string; size: number }> {
  const content = await readWorkspaceFile(root, relPath, folders);
  return { sha: await writeBlob(gitDir, content), size: content.length };
}

/** A workspace file's bytes, opened without following a link at any component. */
export async function readWorkspaceFile(root: string, relPath: string, folders?: HeldFolders): Promise<Buffer> {
  const handle = folders ? await folders.openFile(relPath) : await openBeneath(root, relPath.split('/'), constants.O_RDONLY);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * As readWorkspaceFile, into `spare` when the file fits (the bytes are then a view of it): a big file
 * read into a fresh buffer at every cell cost more in page faults than its hashing (a 40 MB file: 0.15
 * CPU-seconds of system time fresh, 0.04 into a buffer used before). A file that grew past `spare`
 * since it was measured is read whole as without one.
 */
export async function readWorkspaceFileInto(
  root: string,
  relPath: string,
  folders: HeldFolders | undefined,
  spare: Buffer,
): Promise<Buffer> {
  const handle = folders ? await folders.openFile(relPath) : await openBeneath(root, relPath.split('/'), constants.O_RDONLY);
  try {
    let at = 0;
    while (at < spare.length) {
      // Positional reads: the handle's own position stays at 0 for readFile below.
      const { bytesRead } = await handle.read(spare, at, spare.length - at, at);
      if (bytesRead === 0) return spare.subarray(0, at);
      at += bytesRead;
    }
    if ((await handle.read(Buffer.alloc(1), 0, 1, at)).bytesRead === 0) return spare;
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

export function writeBlob(gitDir: string, content: Buffer): Promise<string> {
  return writeObject(gitDir, 'blob', content);
}

/** Stores an object in git's loose format (zlib of "<type> <size>\0<content>", named by its SHA-1); returns its id. */
export async function writeObject(gitDir: string, type: 'blob' | 'tree', content: Buffer): Promise<string> {
  return (await putObject(gitDir, type, content)).sha;
}

/** The id git gives `content` as an object of `type`. */
export function objectId(type: 'blob' | 'tree', content: Buffer): string {
  return createHash('sha1').update(`${type} ${content.length}\0`, 'utf8').update(content).digest('hex');
}

/** As writeObject; `written` says whether the object was new (false: the store had it already). */
export async function putObject(
  gitDir: string,
  type: 'blob' | 'tree',
  content: Buffer,
  knownSha?: string,
): Promise<{ sha: string; written: boolean }> {
  const sha = knownSha ?? objectId(type, content);
  const dir = path.join(gitDir, 'objects', sha.slice(0, 2));
  const file = path.join(dir, sha.slice(2));
  const exists = await stat(file).then(
    () => true,
    () => false,
  );
  if (exists) return { sha, written: false };
  // Written beside, then renamed: a crash never leaves a torn object under its id. The fan-out folder
  // is made only when missing (git gc removes empty ones), not asked for on every object.
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const out = await open(tmp, 'wx', 0o444).catch(async (err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
    await mkdir(dir, { recursive: true });
    return open(tmp, 'wx', 0o444);
  });
  try {
    await out.writeFile(deflateSync(Buffer.concat([Buffer.from(`${type} ${content.length}\0`, 'utf8'), content]), { level: 1 }));
  } finally {
    await out.close();
  }
  await rename(tmp, file);
  return { sha, written: true };
}
