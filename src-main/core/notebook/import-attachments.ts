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

/** The bytes of one attachment: the first MIME type of its bundle, base64 unless the type is text. */
export function attachmentBytes(bundle: Record<string, unknown>): { mime: string; data: Uint8Array } | null {
  for (const [mime, value] of Object.entries(bundle)) {
    if (typeof value !== 'string' && !Array.isArray(value)) continue;
    const text = joinLines(value as string | string[]);
    const isText = mime.startsWith('text/') || mime === 'image/svg+xml';
    return { mime, data: isText ? Buffer.from(text, 'utf8') : Buffer.from(text.replace(/\s+/g, ''), 'base64') };
  }
  return null;
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
    const bytes = attachmentBytes(bundle);
    if (!bytes) continue;
    const path = `attachments/${itemId}-${attachmentKey(name, keys)}`;
    files.push({ path, ...bytes });
    for (const reference of new Set([name, encodeURI(name), encodeURIComponent(name)])) {
      rewritten = rewritten.split(`attachment:${reference}`).join(path);
    }
  }
  return { text: rewritten, files };
}
