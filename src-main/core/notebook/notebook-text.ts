import { isUtf8 } from 'node:buffer';
import { NotebookImportError } from './notebook-import-error';

// The checks that come before JSON: size, binary content, encoding. Notebooks are UTF-8 JSON text;
// a NUL byte or invalid UTF-8 means the file is something else (an archive, an image, a PDF).

export function notebookText(input: string | Uint8Array, maxBytes: number): string {
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
  const nul = input.indexOf(0);
  if (nul >= 0) throw binary(`a NUL byte at byte ${nul}`);
  if (!isUtf8(input)) throw binary(`bytes that are not UTF-8 at byte ${firstInvalidUtf8(input)}`);
  const text = Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('utf8');
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

function binary(what: string): NotebookImportError {
  return new NotebookImportError(
    'binary',
    `This file holds binary data (${what}); a notebook is UTF-8 JSON text.`,
  );
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
