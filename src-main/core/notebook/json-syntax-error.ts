// JSON.parse in Node 20 names the position of some syntax errors and not others. When parsing has
// already failed, this walks the text once more to find where, so the user can open the file there.

export interface JsonSyntaxError {
  offset: number;
  line: number;
  column: number;
  message: string;
}

class Stop extends Error {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

export function locateJsonSyntaxError(text: string): JsonSyntaxError | null {
  let offset: number;
  let reason: string;
  try {
    const end = skipValue(text, skipSpace(text, 0), 0);
    const rest = skipSpace(text, end);
    if (rest === text.length) return null;
    [offset, reason] = [rest, `unexpected ${show(text, rest)} after the end of the document`];
  } catch (error) {
    if (!(error instanceof Stop)) return null; // nested too deep to walk: no position to give
    [offset, reason] = [error.offset, error.reason];
  }
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return { offset, line, column, message: reason };
}

const MAX_DEPTH = 2000;

function skipSpace(text: string, at: number): number {
  while (at < text.length && ' \t\n\r'.includes(text[at] as string)) at++;
  return at;
}

function show(text: string, at: number): string {
  if (at >= text.length) return 'end of file';
  const ch = text[at] as string;
  const code = ch.charCodeAt(0);
  return code < 0x20 ? `control character U+${code.toString(16).padStart(4, '0').toUpperCase()}` : `"${ch}"`;
}

function expect(text: string, at: number, what: string): never {
  throw new Stop(at, `expected ${what}, found ${show(text, at)}`);
}

/** Returns the offset just past the value starting at `at`. */
function skipValue(text: string, at: number, depth: number): number {
  if (depth > MAX_DEPTH) throw new Error('too deep');
  const ch = text[at];
  if (ch === '{') return skipObject(text, at, depth);
  if (ch === '[') return skipArray(text, at, depth);
  if (ch === '"') return skipString(text, at);
  if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return skipNumber(text, at);
  for (const word of ['true', 'false', 'null']) {
    if (text.startsWith(word, at)) return at + word.length;
  }
  return expect(text, at, 'a value');
}

function skipObject(text: string, at: number, depth: number): number {
  at = skipSpace(text, at + 1);
  if (text[at] === '}') return at + 1;
  for (;;) {
    if (text[at] !== '"') expect(text, at, 'a property name in double quotes');
    at = skipSpace(text, skipString(text, at));
    if (text[at] !== ':') expect(text, at, '":"');
    at = skipSpace(text, skipValue(text, skipSpace(text, at + 1), depth + 1));
    if (text[at] === '}') return at + 1;
    if (text[at] !== ',') expect(text, at, '"," or "}"');
    at = skipSpace(text, at + 1);
  }
}

function skipArray(text: string, at: number, depth: number): number {
  at = skipSpace(text, at + 1);
  if (text[at] === ']') return at + 1;
  for (;;) {
    at = skipSpace(text, skipValue(text, at, depth + 1));
    if (text[at] === ']') return at + 1;
    if (text[at] !== ',') expect(text, at, '"," or "]"');
    at = skipSpace(text, at + 1);
  }
}

function skipString(text: string, at: number): number {
  for (at++; at < text.length; at++) {
    const ch = text.charCodeAt(at);
    if (ch === 0x22) return at + 1;
    if (ch < 0x20) throw new Stop(at, `${show(text, at)} inside a string (it must be escaped)`);
    if (ch === 0x5c) {
      const next = text[at + 1];
      if (next === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6))) throw new Stop(at, 'a \\u escape needs four hex digits');
        at += 5;
      } else if (next !== undefined && '"\\/bfnrt'.includes(next)) {
        at++;
      } else {
        throw new Stop(at, `invalid escape "\\${next ?? ''}" in a string`);
      }
    }
  }
  throw new Stop(at, 'a string is not closed before the end of the file');
}

function skipNumber(text: string, at: number): number {
  const match = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  match.lastIndex = at;
  if (!match.test(text)) return expect(text, at, 'a number');
  return match.lastIndex;
}
