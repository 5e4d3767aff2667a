import { constants, existsSync } from 'node:fs';
import { lstat, mkdir, open, readdir, realpath, rename, rmdir, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

// Opening files inside a folder that other code can change at any moment — a workspace, or a
// sandboxed session's private folder — without ever following a symbolic link at any component.
// Checking a path and then opening it is a race: the code can swap a folder for a link to ~/.bashrc's
// folder between the two. So a path is walked one component at a time, each folder held open and the
// next name looked up inside that very folder, never through the path again:
// - Linux: `/proc/self/fd/<fd>/<name>` names `name` inside the folder open as `fd` (what openat does);
//   O_NOFOLLOW refuses a link as the name, O_DIRECTORY anything that is not a folder.
// - macOS: O_NOFOLLOW_ANY (macOS 11+) refuses a link at any component of the whole path.
// - elsewhere (Windows): each component is checked with lstat before use; a race there is possible,
//   and symbolic links need privileges on Windows, which sandboxed code does not have.
// The root itself is trusted (the workspace folder the user chose, a folder the app made).

/** Something on the path is a symbolic link (or not a folder), so nothing was opened or written. */
export class NoFollowError extends Error {
  constructor(
    message: string,
    readonly reason: 'symlink' | 'not-a-folder' | 'bad-name',
  ) {
    super(message);
  }
}

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
/** macOS's "no link at any component" flag; Node does not export it. */
const O_NOFOLLOW_ANY = 0x20000000;

type Strategy = 'proc-fd' | 'nofollow-any' | 'lstat';

let strategy: Strategy | null = null;
function strategyHere(): Strategy {
  strategy ??=
    process.platform === 'linux' && existsSync('/proc/self/fd') ? 'proc-fd' : process.platform === 'darwin' ? 'nofollow-any' : 'lstat';
  return strategy;
}

/** A folder held open: names inside it resolve in this very folder, however its path changes. */
export interface HeldFolder {
  /** A path that names the held folder itself (on Linux, its descriptor in /proc/self/fd). */
  readonly self: string;
  /** A path that names `name` inside the held folder (never through a link). */
  child(name: string): string;
  /** Extra open(2) flags for opening `child(name)` (O_NOFOLLOW_ANY on macOS). */
  readonly openFlags: number;
  close(): Promise<void>;
}

export interface HoldOptions {
  /** Create missing folders (one at a time, each inside the folder held before it). */
  create?: boolean;
  mode?: number;
  /** Told the path of each folder created (to remove it again if what follows fails). */
  onCreate?: (path: string) => void;
}

/** Refuses names that could leave the folder or mean something else: '', '.', '..', separators, NUL. */
export function checkName(name: string): void {
  if (name === '' || name === '.' || name === '..' || /[/\0]/.test(name) || (process.platform === 'win32' && name.includes('\\'))) {
    throw new NoFollowError(`${JSON.stringify(name)} is not a plain file or folder name`, 'bad-name');
  }
}

/** Holds `root/segments…` open, refusing a link or a non-folder at any component below `root`. */
export async function holdFolder(root: string, segments: readonly string[], options: HoldOptions = {}): Promise<HeldFolder> {
  for (const name of segments) checkName(name);
  const how = strategyHere();
  if (how === 'proc-fd') return holdByFd(root, segments, options);
  return holdByPath(await realpath(root), segments, options, how);
}

async function holdByFd(root: string, segments: readonly string[], options: HoldOptions): Promise<HeldFolder> {
  let handle = await open(root, constants.O_RDONLY | O_DIRECTORY);
  let where = root;
  try {
    for (const name of segments) {
      const next = `/proc/self/fd/${handle.fd}/${name}`;
      const opened = await openFolder(next, options, `${where}/${name}`);
      await handle.close();
      handle = opened;
      where = `${where}/${name}`;
    }
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
  return heldByHandle(handle);
}

function heldByHandle(handle: FileHandle): HeldFolder {
  return {
    self: `/proc/self/fd/${handle.fd}`,
    child: (name) => {
      checkName(name);
      return `/proc/self/fd/${handle.fd}/${name}`;
    },
    openFlags: 0,
    close: () => handle.close(),
  };
}

/** Opens one folder (created first when asked), refusing a link or a file in its place. */
async function openFolder(at: string, options: HoldOptions, shown: string, extraFlags = 0): Promise<FileHandle> {
  const flags = constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW | extraFlags;
  try {
    return await open(at, flags);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && options.create) {
      const made = await mkdir(at, { mode: options.mode ?? 0o755 }).then(
        () => true,
        (e: NodeJS.ErrnoException) => {
          if (e.code !== 'EEXIST') throw e;
          return false;
        },
      );
      if (made) options.onCreate?.(shown);
      return openFolder(at, { ...options, create: false }, shown, extraFlags);
    }
    throw (await refusal(at, shown, err)) ?? err;
  }
}

async function holdByPath(realRoot: string, segments: readonly string[], options: HoldOptions, how: Strategy): Promise<HeldFolder> {
  const extra = how === 'nofollow-any' ? O_NOFOLLOW_ANY : 0;
  let current = realRoot;
  for (const name of segments) {
    const next = path.join(current, name);
    if (how === 'lstat') {
      const st = await lstat(next).catch(() => null);
      if (st?.isSymbolicLink())
        throw new NoFollowError(`${next} is a symbolic link; the app does not follow links it did not make`, 'symlink');
    }
    const handle = await openFolder(next, options, next, extra);
    await handle.close();
    current = next;
  }
  const folder = current;
  return {
    self: folder,
    child: (name) => {
      checkName(name);
      return path.join(folder, name);
    },
    openFlags: extra,
    close: async () => undefined,
  };
}

/** Why opening `at` failed, in words, when a link or a non-folder is the reason. */
async function refusal(at: string, shown: string, err: unknown): Promise<NoFollowError | null> {
  const code = (err as NodeJS.ErrnoException).code;
  if (code !== 'ELOOP' && code !== 'ENOTDIR' && code !== 'EMLINK') return null;
  const st = await lstat(at).catch(() => null);
  if (st?.isSymbolicLink() || code === 'ELOOP' || code === 'EMLINK') {
    return new NoFollowError(`${shown} is a symbolic link; the app does not follow links it did not make`, 'symlink');
  }
  return new NoFollowError(`${shown} is not a folder`, 'not-a-folder');
}

export interface OpenBeneathOptions extends HoldOptions {
  /** Permission bits of a file created by this open. */
  fileMode?: number;
}

/**
 * Opens `root/segments…` with `flags` (O_WRONLY | O_CREAT | O_EXCL …), never following a link at any
 * component: the last one is opened with O_NOFOLLOW inside its held parent folder.
 */
export async function openBeneath(
  root: string,
  segments: readonly string[],
  flags: number,
  options: OpenBeneathOptions = {},
): Promise<FileHandle> {
  const name = segments.at(-1);
  if (name === undefined) throw new NoFollowError('no file name given', 'bad-name');
  checkName(name);
  const folder = await holdFolder(root, segments.slice(0, -1), options);
  try {
    const at = folder.child(name);
    try {
      return await open(at, flags | O_NOFOLLOW | folder.openFlags, options.fileMode ?? 0o644);
    } catch (err) {
      throw (await refusal(at, path.join(root, ...segments), err)) ?? err;
    }
  } finally {
    await folder.close();
  }
}

/**
 * Creates `root/segments…` as a new file holding `data`. With `replace`, a file (or link) already
 * there is removed first — the link itself, never what it points to.
 */
export async function writeNewFileBeneath(
  root: string,
  segments: readonly string[],
  data: string | Uint8Array,
  options: OpenBeneathOptions & { replace?: boolean } = {},
): Promise<void> {
  if (options.replace) await unlinkBeneath(root, segments);
  const handle = await openBeneath(root, segments, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, options);
  try {
    await handle.writeFile(data);
  } finally {
    await handle.close();
  }
}

/** Removes the file or link at `root/segments…` if there is one (never what a link points to). */
export async function unlinkBeneath(root: string, segments: readonly string[]): Promise<void> {
  const name = segments.at(-1);
  if (name === undefined) return;
  const folder = await holdFolder(root, segments.slice(0, -1));
  try {
    await unlink(folder.child(name)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  } finally {
    await folder.close();
  }
}

/**
 * Deletes `root/segments…` and, for a folder, everything in it, without following a link anywhere: a
 * link is removed as a link, and a folder swapped for a link mid-way is removed as that link.
 */
export async function removeBeneath(root: string, segments: readonly string[]): Promise<void> {
  const name = segments.at(-1);
  if (name === undefined) throw new NoFollowError('refusing to remove the root folder itself', 'bad-name');
  const parent = await holdFolder(root, segments.slice(0, -1));
  try {
    await removeIn(parent, name);
  } finally {
    await parent.close();
  }
}

async function removeIn(parent: HeldFolder, name: string): Promise<void> {
  const at = parent.child(name);
  const st = await lstat(at).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  if (!st) return;
  if (!st.isDirectory()) return unlinkOrGone(at);
  let folder: HeldFolder;
  try {
    folder = await holdChild(parent, name);
  } catch (err) {
    // Swapped for a link (or a file) since the lstat: remove that, not what it points to.
    if (err instanceof NoFollowError) return unlinkOrGone(at);
    throw err;
  }
  try {
    for (const entry of await readdir(folder.self)) await removeIn(folder, entry);
  } finally {
    await folder.close();
  }
  await rmdir(at).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
}

/** The folder `name` inside a held folder, held in turn. */
async function holdChild(parent: HeldFolder, name: string): Promise<HeldFolder> {
  const at = parent.child(name);
  if (strategyHere() === 'proc-fd') {
    return heldByHandle(await openFolder(at, {}, at));
  }
  const st = await lstat(at);
  if (st.isSymbolicLink()) throw new NoFollowError(`${at} is a symbolic link`, 'symlink');
  const handle = await openFolder(at, {}, at, parent.openFlags);
  await handle.close();
  return {
    self: at,
    child: (n) => {
      checkName(n);
      return path.join(at, n);
    },
    openFlags: parent.openFlags,
    close: async () => undefined,
  };
}

async function unlinkOrGone(at: string): Promise<void> {
  await unlink(at).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
}

/**
 * Renames `from` to `to` (both segment lists under `root`) with each parent folder held, so neither
 * end can be redirected through a link. Fails if `to` exists when `exclusive` (the default) is set.
 */
export async function renameBeneath(
  root: string,
  from: readonly string[],
  to: readonly string[],
  options: HoldOptions = {},
): Promise<void> {
  const fromName = from.at(-1);
  const toName = to.at(-1);
  if (fromName === undefined || toName === undefined) throw new NoFollowError('no name given', 'bad-name');
  checkName(fromName);
  checkName(toName);
  const source = await holdFolder(root, from.slice(0, -1));
  try {
    const target = await holdFolder(root, to.slice(0, -1), options);
    try {
      const exists = await lstat(target.child(toName)).then(
        () => true,
        () => false,
      );
      if (exists) throw Object.assign(new Error(`${path.join(root, ...to)} already exists`), { code: 'EEXIST' });
      await rename(source.child(fromName), target.child(toName));
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}
