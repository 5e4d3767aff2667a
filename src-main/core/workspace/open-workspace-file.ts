import { constants, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { WorkspacePathError, workspaceSegments } from './confine';
import { NoFollowError, openBeneath } from '../fs/no-follow-open';
import { resolveInWorkspace } from './resolve-in-workspace';

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

/** Whatever a workspace path names (file, folder, FIFO…), open for reading; the caller closes `handle`. */
export interface OpenWorkspaceEntry {
  handle: FileHandle;
  /** fstat of the open handle: what was opened, not what the path names now. */
  stat: Stats;
}

/** A regular file of the workspace, open for reading; the caller closes `handle`. */
export interface OpenWorkspaceFile {
  handle: FileHandle;
  /** Bytes at the moment it was opened: what a download promises and sends, even if the file grows. */
  size: number;
  /** The name the user sees in the tree (the link's name when it is a link inside the workspace). */
  name: string;
}

// O_NONBLOCK: a FIFO cannot hang the open (fstat then tells what it is). 0 where the OS has no such
// flag (Windows). O_NOFOLLOW at every component is openBeneath's.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Opens what a workspace path names for reading, never following a symbolic link at any component:
 * links inside the workspace are resolved by resolveInWorkspace (lexically, staying inside), then the
 * resulting names are opened one folder at a time with O_NOFOLLOW (no-follow-open.ts). Code in the
 * workspace swapping a folder for a link to elsewhere, at any moment, makes the open fail; it can
 * never make it read outside.
 */
export async function openWorkspaceEntry(root: string, rel: string): Promise<OpenWorkspaceEntry> {
  let handle: FileHandle;
  try {
    const { realRoot, segments } = await resolveInWorkspace(root, rel, { followFinal: true });
    if (segments.length === 0) throw new WorkspaceFileError('not-a-file', `"${rel}" is the workspace folder itself`);
    handle = await openBeneath(realRoot, segments, READ_FLAGS);
  } catch (err) {
    throw refusalFor(err, rel) ?? err;
  }
  try {
    return { handle, stat: await handle.stat() };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/**
 * Opens a workspace file to send it out of the app (a browser download, a desktop "save a copy").
 * Only regular files inside the real workspace root: no `..`, absolute paths or device names, no link
 * leading outside, no folders, FIFOs, sockets or devices (checked on the open handle).
 */
export async function openWorkspaceFile(root: string, rel: string): Promise<OpenWorkspaceFile> {
  const { handle, stat } = await openWorkspaceEntry(root, rel);
  if (stat.isFile()) return { handle, size: stat.size, name: workspaceSegments(rel).at(-1) ?? rel };
  await handle.close();
  if (stat.isDirectory()) throw new WorkspaceFileError('not-a-file', `"${rel}" is a folder; only files can be downloaded`);
  throw new WorkspaceFileError('not-a-file', `"${rel}" is not a regular file (a device, pipe or socket)`);
}

/** The file's first `size` bytes as a stream that leaves the handle open (the caller closes it). */
export function readOpened(file: OpenWorkspaceFile): Readable {
  // createReadStream's `end` is inclusive and cannot express an empty range.
  if (file.size === 0) return Readable.from([]);
  return file.handle.createReadStream({ start: 0, end: file.size - 1, autoClose: false });
}

function refusalFor(err: unknown, rel: string): WorkspaceFileError | null {
  if (err instanceof WorkspaceFileError) return err;
  if (err instanceof WorkspacePathError) return new WorkspaceFileError('outside', err.message);
  if (err instanceof NoFollowError) {
    return err.reason === 'not-a-folder'
      ? new WorkspaceFileError('missing', `"${rel}" does not exist in the workspace`)
      : new WorkspaceFileError('outside', `"${rel}" became a symbolic link while it was being opened; try again`);
  }
  switch ((err as NodeJS.ErrnoException).code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return new WorkspaceFileError('missing', `"${rel}" does not exist in the workspace`);
    case 'ELOOP':
      return new WorkspaceFileError('outside', `"${rel}" became a symbolic link while it was being opened; try again`);
    default:
      return null;
  }
}
