import { constants, type Stats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { confine, workspaceSegments, WorkspacePathError } from './confine';

/** Why a file cannot be read out of the workspace; browser mode maps each to an HTTP status. */
export type WorkspaceFileRefusal = 'outside' | 'missing' | 'not-a-file';

export class WorkspaceFileError extends Error {
  constructor(
    readonly refusal: WorkspaceFileRefusal,
    message: string,
  ) {
    super(message);
  }
}

/** A regular file of the workspace, open for reading; the caller closes `handle`. */
export interface OpenWorkspaceFile {
  handle: FileHandle;
  /** Bytes at the moment it was opened: what a download promises and sends, even if the file grows. */
  size: number;
  /** The name the user sees in the tree (the link's name when it is a link inside the workspace). */
  name: string;
}

// O_NOFOLLOW: confine() resolved every link, so a link found at the final name now was put there
// since, and is refused rather than followed. O_NONBLOCK: a FIFO swapped in cannot hang the open (the
// fstat below then refuses it). Both are 0 where the OS has no such flag (Windows).
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Opens a workspace file to send it out of the app (a browser download, a desktop "save a copy").
 * Only regular files inside the real workspace root: no `..`, absolute paths or device names
 * (confine), no link leading outside, no folders, FIFOs, sockets or devices. The path is confined
 * again after the open and must still name the very file opened, so swapping a folder for a link in
 * between cannot redirect the read outside.
 */
export async function openWorkspaceFile(root: string, rel: string): Promise<OpenWorkspaceFile> {
  const abs = await confined(root, rel);
  let handle: FileHandle;
  try {
    handle = await open(abs, OPEN_FLAGS);
  } catch (err) {
    throw refusalFor(err, rel) ?? err;
  }
  try {
    const opened = await handle.stat();
    if (opened.isDirectory()) throw new WorkspaceFileError('not-a-file', `"${rel}" is a folder; only files can be downloaded`);
    if (!opened.isFile()) throw new WorkspaceFileError('not-a-file', `"${rel}" is not a regular file (a device, pipe or socket)`);
    const now = await stat(await confined(root, rel)).catch((err: unknown) => {
      throw refusalFor(err, rel) ?? err;
    });
    if (!sameFile(opened, now)) throw new WorkspaceFileError('outside', `"${rel}" changed while it was being opened; try again`);
    return { handle, size: opened.size, name: workspaceSegments(rel).at(-1) ?? rel };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** The file's first `size` bytes as a stream that leaves the handle open (the caller closes it). */
export function readOpened(file: OpenWorkspaceFile): Readable {
  // createReadStream's `end` is inclusive and cannot express an empty range.
  if (file.size === 0) return Readable.from([]);
  return file.handle.createReadStream({ start: 0, end: file.size - 1, autoClose: false });
}

async function confined(root: string, rel: string): Promise<string> {
  try {
    return await confine(root, rel, { followFinal: true });
  } catch (err) {
    if (err instanceof WorkspacePathError) throw new WorkspaceFileError('outside', err.message);
    throw refusalFor(err, rel) ?? err;
  }
}

function refusalFor(err: unknown, rel: string): WorkspaceFileError | null {
  switch ((err as NodeJS.ErrnoException).code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return new WorkspaceFileError('missing', `"${rel}" does not exist in the workspace`);
    case 'ELOOP':
      return new WorkspaceFileError('outside', `"${rel}" became a symbolic link while it was being opened`);
    case 'EISDIR':
      return new WorkspaceFileError('not-a-file', `"${rel}" is a folder; only files can be downloaded`);
    default:
      return null;
  }
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}
