import { constants } from 'node:fs';
import { lstat, open, readFile, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { MAX_ATTACHMENT_BYTES, type Attachment } from '@contract';
import { WorkspacePathError, workspaceSegments } from './confine';
import { mimeOf } from './file-types';
import { holdFolder, NoFollowError, type HeldFolder } from '../fs/no-follow-open';

export const ATTACHMENTS_DIR = 'attachments';

// A new file, never an existing one, never through a link (O_EXCL refuses a link at the name too).
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** Writes dropped or pasted bytes to attachments/<name>, never replacing an earlier attachment. */
export async function saveAttachmentBytes(root: string, name: string, mime: string, bytes: Uint8Array): Promise<Attachment> {
  checkSize(name, bytes.byteLength);
  const { handle, rel } = await createAttachment(root, name);
  try {
    await handle.writeFile(bytes);
  } finally {
    await handle.close();
  }
  return { path: rel, name: path.basename(rel), mime: mime || mimeOf(rel), size: bytes.byteLength };
}

/** Copies a file the user dropped (desktop: its real path) into attachments/; the original is only read. */
export async function copyAttachmentFrom(root: string, sourcePath: string): Promise<Attachment> {
  if (!path.isAbsolute(sourcePath)) throw new WorkspacePathError('the dropped file has no absolute path');
  const st = await stat(sourcePath);
  if (!st.isFile()) throw new WorkspacePathError(`"${path.basename(sourcePath)}" is not a regular file`);
  checkSize(path.basename(sourcePath), st.size);
  const { handle, rel } = await createAttachment(root, path.basename(sourcePath));
  try {
    // At most MAX_ATTACHMENT_BYTES (checked above): read whole, written through the handle we made.
    await handle.writeFile(await readFile(sourcePath));
  } finally {
    await handle.close();
  }
  return { path: rel, name: path.basename(rel), mime: mimeOf(rel), size: st.size };
}

function checkSize(name: string, size: number): void {
  if (size > MAX_ATTACHMENT_BYTES) {
    throw new WorkspacePathError(
      `"${name}" is ${(size / 1024 / 1024).toFixed(1)} MB; attachments can be at most ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB`,
    );
  }
}

/**
 * A new file under attachments/ with a safe, unused name: "plot.png", then "plot (2).png"… The folder
 * is held open without following a link (code in the workspace could make attachments/ a link to
 * elsewhere at any moment), and each name is created with O_EXCL inside it: taken names move on.
 */
async function createAttachment(root: string, wanted: string): Promise<{ handle: FileHandle; rel: string }> {
  const clean = safeFileName(wanted);
  let folder: HeldFolder;
  try {
    folder = await holdFolder(root, [ATTACHMENTS_DIR], { create: true });
  } catch (err) {
    if (err instanceof NoFollowError)
      throw new WorkspacePathError(
        `${ATTACHMENTS_DIR}/ is not a plain folder (${err.reason}); it could lead outside the workspace, so nothing is written through it`,
      );
    throw err;
  }
  try {
    const ext = path.extname(clean);
    const stem = clean.slice(0, clean.length - ext.length);
    for (let n = 1; n < 10_000; n++) {
      const candidate = n === 1 ? clean : `${stem} (${n})${ext}`;
      const at = folder.child(candidate);
      // A cheap look first so a long run of taken names does not cost an open each.
      if (
        await lstat(at).then(
          () => true,
          () => false,
        )
      )
        continue;
      try {
        return { handle: await open(at, CREATE_FLAGS | folder.openFlags, 0o644), rel: `${ATTACHMENTS_DIR}/${candidate}` };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' && (err as NodeJS.ErrnoException).code !== 'ELOOP') throw err;
      }
    }
    throw new WorkspacePathError(`too many attachments named "${clean}"`);
  } finally {
    await folder.close();
  }
}

/** The last path segment, with separators, control characters and reserved names made harmless. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  let clean = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_')
    .replace(/^[. ]+/, '')
    .replace(/[. ]+$/, '')
    .slice(0, 200);
  if (!clean) clean = 'attachment';
  try {
    workspaceSegments(clean);
  } catch {
    clean = `_${clean}`;
  }
  return clean;
}
