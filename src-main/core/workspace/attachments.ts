import { copyFile, mkdir, open, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { MAX_ATTACHMENT_BYTES, type Attachment } from '@contract';
import { isInside, WorkspacePathError, workspaceSegments } from './confine';
import { mimeOf } from './file-types';

export const ATTACHMENTS_DIR = 'attachments';

/** Writes dropped or pasted bytes to attachments/<name>, never replacing an earlier attachment. */
export async function saveAttachmentBytes(root: string, name: string, mime: string, bytes: Uint8Array): Promise<Attachment> {
  checkSize(name, bytes.byteLength);
  const { abs, rel } = await reserveName(root, name);
  const fh = await open(abs, 'wx', 0o644);
  try {
    await fh.writeFile(bytes);
  } finally {
    await fh.close();
  }
  return { path: rel, name: path.basename(rel), mime: mime || mimeOf(rel), size: bytes.byteLength };
}

/** Copies a file the user dropped (desktop: its real path) into attachments/; the original is only read. */
export async function copyAttachmentFrom(root: string, sourcePath: string): Promise<Attachment> {
  if (!path.isAbsolute(sourcePath)) throw new WorkspacePathError('the dropped file has no absolute path');
  const st = await stat(sourcePath);
  if (!st.isFile()) throw new WorkspacePathError(`"${path.basename(sourcePath)}" is not a regular file`);
  checkSize(path.basename(sourcePath), st.size);
  const { abs, rel } = await reserveName(root, path.basename(sourcePath));
  // COPYFILE_EXCL: a name taken between reserving and copying fails instead of overwriting.
  await copyFile(sourcePath, abs, 1);
  return { path: rel, name: path.basename(rel), mime: mimeOf(rel), size: st.size };
}

function checkSize(name: string, size: number): void {
  if (size > MAX_ATTACHMENT_BYTES) {
    throw new WorkspacePathError(`"${name}" is ${(size / 1024 / 1024).toFixed(1)} MB; attachments can be at most ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB`);
  }
}

/** A safe, unused name under attachments/: "plot.png", then "plot (2).png", "plot (3).png"… */
async function reserveName(root: string, wanted: string): Promise<{ abs: string; rel: string }> {
  const clean = safeFileName(wanted);
  await mkdir(path.join(root, ATTACHMENTS_DIR), { recursive: true });
  // attachments/ could be a symlink someone's code made; never write through it to elsewhere.
  const realRoot = await realpath(root);
  const dir = await realpath(path.join(root, ATTACHMENTS_DIR));
  if (!isInside(realRoot, dir) || dir === realRoot) throw new WorkspacePathError(`${ATTACHMENTS_DIR}/ leads outside the workspace`);
  const ext = path.extname(clean);
  const stem = clean.slice(0, clean.length - ext.length);
  for (let n = 1; n < 10_000; n++) {
    const candidate = n === 1 ? clean : `${stem} (${n})${ext}`;
    const abs = path.join(dir, candidate);
    const taken = await stat(abs).then(
      () => true,
      () => false,
    );
    if (!taken) return { abs, rel: `${ATTACHMENTS_DIR}/${candidate}` };
  }
  throw new WorkspacePathError(`too many attachments named "${clean}"`);
}

/** The last path segment, with separators, control characters and reserved names made harmless. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  let clean = base.replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_').replace(/^[. ]+/, '').replace(/[. ]+$/, '').slice(0, 200);
  if (!clean) clean = 'attachment';
  try {
    workspaceSegments(clean);
  } catch {
    clean = `_${clean}`;
  }
  return clean;
}
