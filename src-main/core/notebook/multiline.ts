import { isJsonMime, type MultilineString } from './nbformat-schema';

// Jupyter stores text as lists of lines, each keeping its line ending, so that notebooks diff well.
// It splits with Python's str.splitlines(keepends=True), whose line boundaries are wider than '\n'
// (also \r, \v, \f, \x1c-\x1e, \x85, U+2028, U+2029); matching them makes our files
// byte-identical to what nbformat itself writes.
function isLineBoundary(c: number): boolean {
  return (c >= 0x0a && c <= 0x0d) || (c >= 0x1c && c <= 0x1e) || c === 0x85 || c === 0x2028 || c === 0x2029;
}

export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x0d && c < 0x1c) continue; // the common case: ordinary printable text
    if (!isLineBoundary(c)) continue;
    if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++;
    lines.push(text.slice(start, i + 1));
    start = i + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

export function joinLines(value: MultilineString): string {
  return typeof value === 'string' ? value : value.join('');
}

/** Which MIME values nbformat splits into lines when writing: text types, SVG and JavaScript. */
export function isSplitMime(mime: string): boolean {
  return mime.startsWith('text/') || mime === 'image/svg+xml' || mime === 'application/javascript';
}

/** A MIME bundle as Jupyter writes it. Non-text values that are not JSON are kept as their JSON text. */
export function splitBundle(bundle: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [mime, value] of Object.entries(bundle)) {
    if (isJsonMime(mime)) out[mime] = value;
    else if (typeof value === 'string') out[mime] = isSplitMime(mime) ? splitLines(value) : value;
    else if (Array.isArray(value) && value.every((line) => typeof line === 'string')) out[mime] = value;
    else out[mime] = JSON.stringify(value) ?? '';
  }
  return out;
}

/** A MIME bundle as the app holds it: every text value joined into one string. */
export function joinBundle(bundle: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [mime, value] of Object.entries(bundle)) {
    out[mime] = !isJsonMime(mime) && Array.isArray(value) ? (value as string[]).join('') : value;
  }
  return out;
}
