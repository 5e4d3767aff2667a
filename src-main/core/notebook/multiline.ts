import { isJsonMime, type MultilineString } from './nbformat-schema';

// Jupyter stores text as lists of lines, each keeping its line ending, so that notebooks diff well.
// It splits with Python's str.splitlines(keepends=True), whose line boundaries are wider than '\n';
// matching them exactly makes our files byte-identical to what nbformat itself writes.
const LINE = /[^\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]*(?:\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029])|[^\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]+$/gy;

export function splitLines(text: string): string[] {
  if (text === '') return [];
  // Fast path for the common case: only '\n' boundaries.
  if (!/[\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/.test(text)) {
    const lines = text.split('\n');
    const last = lines.pop() as string;
    const out = lines.map((line) => `${line}\n`);
    if (last !== '') out.push(last);
    return out;
  }
  return text.match(LINE) ?? [];
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
