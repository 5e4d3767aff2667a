import { joinLines } from './multiline';
import type { AttachmentsV4 } from './nbformat-schema';
import { attachmentKey } from './user-attachments';

// Cell attachments hold files inside the notebook. Import is pure, so it hands their bytes back as
// files for the caller to write into the new conversation's workspace (under attachments/).

export interface ImportedFile {
  /** Relative to the conversation's workspace; always under attachments/, never outside. */
  path: string;
  data: Uint8Array;
  mime: string;
}

const EXTENSION_MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
};

/**
 * The bytes of one attachment. A bundle may hold alternatives (JupyterLab keeps an `image/svg+xml` and
 * an `image/png` of one drawing): the one the file name's extension asks for, else the first. Text
 * types are stored as text, others base64 — except SVG, which some writers store base64 too: taken as
 * text only when it reads as markup.
 */
export function attachmentBytes(bundle: Record<string, unknown>, name = ''): { mime: string; data: Uint8Array } | null {
  const usable = Object.entries(bundle).filter(
    (entry): entry is [string, string | string[]] => typeof entry[1] === 'string' || Array.isArray(entry[1]),
  );
  const wanted = EXTENSION_MIME[name.split('.').pop()?.toLowerCase() ?? ''];
  const chosen = usable.find(([mime]) => mime === wanted) ?? usable[0];
  if (!chosen) return null;
  const [mime, value] = chosen;
  const text = joinLines(value);
  if (mime.startsWith('text/')) return { mime, data: Buffer.from(text, 'utf8') };
  if (mime === 'image/svg+xml' && text.trimStart().startsWith('<')) return { mime, data: Buffer.from(text, 'utf8') };
  return { mime, data: Buffer.from(text.replace(/\s+/g, ''), 'base64') };
}

/** A workspace path is safe to write when it stays under attachments/ with no way out. */
export function isSafeAttachmentPath(path: string): boolean {
  if (!path.startsWith('attachments/') || path.includes('\\') || path.includes('\0')) return false;
  return path.split('/').every((part, i) => i === 0 || (part !== '' && part !== '.' && part !== '..'));
}

/**
 * Files for the attachments of a markdown cell that did not come from this app, and its text with
 * `attachment:name` links pointing at those files instead.
 */
export function extractAttachments(
  itemId: string,
  text: string,
  attachments: AttachmentsV4 | undefined,
): { text: string; files: ImportedFile[] } {
  if (!attachments) return { text, files: [] };
  const files: ImportedFile[] = [];
  const keys = new Set<string>();
  let rewritten = text;
  for (const [name, bundle] of Object.entries(attachments)) {
    const bytes = attachmentBytes(bundle, name);
    if (!bytes) continue;
    const path = `attachments/${itemId}-${attachmentKey(name, keys)}`;
    files.push({ path, ...bytes });
    for (const reference of new Set([name, encodeURI(name), encodeURIComponent(name)])) {
      rewritten = rewritten.split(`attachment:${reference}`).join(path);
    }
  }
  return { text: rewritten, files };
}
