import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { FilePreview } from '@contract';
import { imageMime, isNotebook, languageOf, looksBinary, mimeOf } from './file-types';
import { openWorkspaceEntry, WorkspaceFileError } from './open-workspace-file';
import { WorkspacePathError } from './confine';

// Limits keep one preview from freezing the renderer or exceeding a WebSocket frame. Text beyond
// TEXT_SHOWN_BYTES is cut (and said so); images and notebooks beyond their limit show metadata.
export const PREVIEW_LIMITS = {
  imageBytes: 20 * 1024 * 1024,
  notebookBytes: 20 * 1024 * 1024,
  textShownBytes: 512 * 1024,
  /** CSV and TSV show as a virtualised table, so more of them is worth sending. */
  tableShownBytes: 4 * 1024 * 1024,
};

const TABLE = /\.(csv|tsv|tab)$/i;

/**
 * Reads the workspace path `rel` for the preview panel. Opened without following a link at any
 * component (openWorkspaceEntry), and everything shown is read from that one handle: a folder swapped
 * for a link to elsewhere mid-request cannot show a byte from outside.
 */
export async function previewFile(root: string, rel: string): Promise<FilePreview> {
  let opened;
  try {
    opened = await openWorkspaceEntry(root, rel);
  } catch (err) {
    // The panel shows the message; the request fails like any other refused path.
    if (err instanceof WorkspaceFileError) throw new WorkspacePathError(err.message);
    throw err;
  }
  try {
    return await previewOpened(opened.handle, opened.stat, rel);
  } finally {
    await opened.handle.close();
  }
}

async function previewOpened(fh: FileHandle, st: Stats, rel: string): Promise<FilePreview> {
  const base = { path: rel, size: st.size, mtimeMs: st.mtimeMs, mime: mimeOf(rel) };
  if (st.isDirectory()) return { kind: 'meta', ...base, mime: 'inode/directory', reason: 'a folder' };
  if (!st.isFile()) return { kind: 'meta', ...base, reason: 'not a regular file' };

  const image = imageMime(rel);
  if (image) {
    if (st.size > PREVIEW_LIMITS.imageBytes) return { kind: 'meta', ...base, reason: `image larger than ${mb(PREVIEW_LIMITS.imageBytes)}` };
    const bytes = await readHead(fh, st.size);
    return { kind: 'image', ...base, mime: image, dataBase64: Buffer.from(bytes).toString('base64') };
  }
  if (isNotebook(rel)) {
    if (st.size > PREVIEW_LIMITS.notebookBytes)
      return { kind: 'meta', ...base, reason: `notebook larger than ${mb(PREVIEW_LIMITS.notebookBytes)}` };
    return { kind: 'notebook', ...base, text: Buffer.from(await readHead(fh, st.size)).toString('utf8') };
  }
  const shown = TABLE.test(rel) ? PREVIEW_LIMITS.tableShownBytes : PREVIEW_LIMITS.textShownBytes;
  const head = await readHead(fh, Math.min(st.size, shown));
  if (looksBinary(head.subarray(0, 8192))) return { kind: 'meta', ...base, reason: 'binary file' };
  const text = new TextDecoder('utf-8', { fatal: false }).decode(trimPartialUtf8(head, st.size > head.length));
  return { kind: 'text', ...base, text, truncated: st.size > head.length, language: languageOf(rel) };
}

async function readHead(fh: FileHandle, length: number): Promise<Uint8Array> {
  const buf = Buffer.alloc(length);
  let offset = 0;
  while (offset < length) {
    const { bytesRead } = await fh.read(buf, offset, length - offset, offset);
    if (bytesRead === 0) break;
    offset += bytesRead;
  }
  return buf.subarray(0, offset);
}

/** Drops a multi-byte character cut at the end of a truncated read, so it does not show as "�". */
function trimPartialUtf8(bytes: Uint8Array, cut: boolean): Uint8Array {
  if (!cut) return bytes;
  let i = bytes.length - 1;
  let back = 0;
  while (i >= 0 && back < 4 && ((bytes[i] ?? 0) & 0xc0) === 0x80) {
    i--;
    back++;
  }
  if (i < 0) return bytes;
  const lead = bytes[i] ?? 0;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return need > back + 1 ? bytes.subarray(0, i) : bytes;
}

function mb(bytes: number): string {
  return `${Math.round(bytes / 1024 / 1024)} MB`;
}
