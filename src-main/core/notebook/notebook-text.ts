import { isUtf8 } from 'node:buffer';
import { NotebookImportError } from './notebook-import-error';

// The checks that come before JSON: size, binary content, encoding. Notebooks are UTF-8 JSON text;
// a NUL byte or invalid UTF-8 means the file is something else (an archive, an image, a PDF).

export function notebookText(input: string | Uint8Array, maxBytes: number, warnings: string[] = []): string {
  const size = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.byteLength;
  if (size > maxBytes) {
    throw new NotebookImportError(
      'too-large',
      `The notebook is ${formatBytes(size)}, over the import limit of ${formatBytes(maxBytes)}. ` +
        'Raise the limit in settings to import it.',
    );
  }
  if (typeof input === 'string') {
    const nul = input.indexOf('\u0000');
    if (nul >= 0) throw binary(`a NUL character at position ${nul}`);
    return input.startsWith('\uFEFF') ? input.slice(1) : input;
  }
  const utf16 = utf16Of(input);
  if (utf16) {
    warnings.push(
      `The file is ${utf16.name} text, not the UTF-8 that Jupyter reads; it was read as ${utf16.name}. Exported again, it is written as UTF-8.`,
    );
    return utf16.text;
  }
  const nul = input.indexOf(0);
  if (nul >= 0) throw binary(`a NUL byte at byte ${nul}`);
  if (!isUtf8(input)) throw binary(`bytes that are not UTF-8 at byte ${firstInvalidUtf8(input)}`);
  const text = Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('utf8');
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

/**
 * Notebooks saved by Windows tools as UTF-16 (with a byte order mark, or without one: JSON text
 * starts with an ASCII character, so every other byte is zero). UTF-32 is named and refused.
 */
function utf16Of(bytes: Uint8Array): { name: string; text: string } | null {
  const [b0, b1, b2, b3] = [bytes[0], bytes[1], bytes[2], bytes[3]];
  if ((b0 === 0xff && b1 === 0xfe && b2 === 0 && b3 === 0) || (b0 === 0 && b1 === 0 && b2 === 0xfe && b3 === 0xff)) {
    throw new NotebookImportError(
      'binary',
      'This file is UTF-32 text (it starts with a UTF-32 byte order mark); a notebook is UTF-8 JSON. Save it as UTF-8 and import it again.',
    );
  }
  let encoding: 'utf-16le' | 'utf-16be' | null = null;
  let start = 0;
  if (b0 === 0xff && b1 === 0xfe) [encoding, start] = ['utf-16le', 2];
  else if (b0 === 0xfe && b1 === 0xff) [encoding, start] = ['utf-16be', 2];
  else if (bytes.length >= 2 && bytes.length % 2 === 0 && b0 !== 0 && b0 !== undefined && b0 < 0x80 && b1 === 0) encoding = 'utf-16le';
  else if (bytes.length >= 2 && bytes.length % 2 === 0 && b0 === 0 && b1 !== 0 && b1 !== undefined && b1 < 0x80) encoding = 'utf-16be';
  if (!encoding) return null;
  const name = encoding === 'utf-16le' ? 'UTF-16 (little-endian)' : 'UTF-16 (big-endian)';
  if ((bytes.length - start) % 2 !== 0) {
    throw new NotebookImportError(
      'binary',
      `This file looks like ${name} text but has an odd number of bytes (${bytes.length}); it is cut short or not text.`,
    );
  }
  let text: string;
  try {
    text = new TextDecoder(encoding, { fatal: true }).decode(bytes.subarray(start));
  } catch {
    throw new NotebookImportError(
      'binary',
      `This file looks like ${name} text but holds a broken surrogate pair; it is damaged or not text.`,
    );
  }
  const nul = text.indexOf('\u0000');
  if (nul >= 0) throw binary(`a NUL character at position ${nul} of its ${name} text`);
  return { name, text: text.startsWith('\uFEFF') ? text.slice(1) : text };
}

function binary(what: string): NotebookImportError {
  return new NotebookImportError('binary', `This file holds binary data (${what}); a notebook is UTF-8 JSON text.`);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

/** Offset of the first byte that does not start a valid UTF-8 sequence (called only on invalid input). */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    const length = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0) return i;
    if (length > 1) {
      const slice = bytes.subarray(i, i + length);
      if (slice.length < length || !isUtf8(slice)) return i;
    }
    i += length;
  }
  return i;
}
