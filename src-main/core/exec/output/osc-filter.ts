// Splits terminal text into the text a program printed and the shell-integration sequences
// (OSC 633, the family VS Code's terminal uses) that report where commands start and end.
// Every OSC 633 sequence is removed from the text, including ones a program prints itself: only
// the session decides what they mean (a fence counts only with the run's secret nonce).

export type TerminalPiece =
  | { kind: 'text'; text: string }
  /** `OSC 633 ; C` — the command started; anything before it is the typed line's echo. */
  | { kind: 'commandStart' }
  /** `OSC 633 ; D ; <exit>` — the command finished with this exit code. */
  | { kind: 'commandEnd'; exitCode: number | null }
  /** `OSC 633 ; P ; <Key>=<Value>` — a property such as `Cwd` or the run fence `OiFence`. */
  | { kind: 'property'; key: string; value: string };

const PREFIX = '\x1b]633;';
/** A sequence longer than this without a terminator is program text, not ours: give up waiting. */
const MAX_SEQUENCE = 8192;

export class OscFilter {
  private carry = '';

  push(chunk: string): TerminalPiece[] {
    const s = this.carry + chunk;
    this.carry = '';
    const pieces: TerminalPiece[] = [];
    let i = 0;
    while (i < s.length) {
      const start = s.indexOf(PREFIX, i);
      if (start < 0) {
        const keep = partialPrefixLength(s, i);
        if (s.length - keep > i) pieces.push({ kind: 'text', text: s.slice(i, s.length - keep) });
        this.carry = s.slice(s.length - keep);
        return pieces;
      }
      if (start > i) pieces.push({ kind: 'text', text: s.slice(i, start) });
      const bodyStart = start + PREFIX.length;
      const bel = s.indexOf('\x07', bodyStart);
      const st = s.indexOf('\x1b\\', bodyStart);
      let end: number;
      let termLength: number;
      if (bel >= 0 && (st < 0 || bel < st)) {
        end = bel;
        termLength = 1;
      } else if (st >= 0) {
        end = st;
        termLength = 2;
      } else {
        if (s.length - start > MAX_SEQUENCE) {
          pieces.push({ kind: 'text', text: s.slice(start, bodyStart) });
          i = bodyStart;
          continue;
        }
        this.carry = s.slice(start);
        return pieces;
      }
      const piece = parseBody(s.slice(bodyStart, end));
      if (piece) pieces.push(piece);
      i = end + termLength;
    }
    return pieces;
  }

  /** Whatever was held back waiting for the rest of a sequence, as text (at the end of a stream). */
  flush(): string {
    const rest = this.carry;
    this.carry = '';
    return rest;
  }
}

/** How many characters at the end of s (from `from`) could be the start of PREFIX. */
function partialPrefixLength(s: string, from: number): number {
  const max = Math.min(PREFIX.length - 1, s.length - from);
  for (let n = max; n > 0; n--) {
    if (PREFIX.startsWith(s.slice(s.length - n))) return n;
  }
  return 0;
}

function parseBody(body: string): TerminalPiece | null {
  const kind = body[0];
  const rest = body.slice(2);
  if (kind === 'C') return { kind: 'commandStart' };
  if (kind === 'D') {
    const code = Number.parseInt(rest, 10);
    return { kind: 'commandEnd', exitCode: Number.isFinite(code) ? code : null };
  }
  if (kind === 'P') {
    const eq = rest.indexOf('=');
    if (eq <= 0) return null;
    return { kind: 'property', key: rest.slice(0, eq), value: unescapeValue(rest.slice(eq + 1)) };
  }
  return null;
}

/** Values escape `\`, `;` and control characters as `\xHH`, as VS Code's shell integration does. */
export function unescapeValue(value: string): string {
  return value.replace(/\\x([0-9a-fA-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
