import { SAVED_OUTPUT_MAX_LINES } from '@contract/limits';
import { escapeHtml } from '../highlight/escape-html';

// Saved terminal output (a finished cell after a reload, a cell far up a long conversation) is shown
// as HTML rather than in an xterm: a terminal instance costs tens of milliseconds to create, a <pre>
// almost nothing. This handles what programs commonly print: SGR colours and bold, carriage-return
// progress bars, backspaces; other escape sequences are dropped.

const BASIC = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];

interface Style {
  fg: string | null;
  bold: boolean;
}

/** At most this many trailing lines are shown; the rest is counted (one limit with main's, in the contract). */
export { SAVED_OUTPUT_MAX_LINES };

export function ansiToHtml(text: string, maxLines = SAVED_OUTPUT_MAX_LINES): { html: string; hiddenLines: number; shownLines: number } {
  const lines = resolveLineEdits(text).split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const hiddenLines = Math.max(0, lines.length - Math.max(0, maxLines));
  const shown = hiddenLines ? lines.slice(hiddenLines) : lines;
  const style: Style = { fg: null, bold: false };
  const html = shown.map((line) => renderLine(line, style)).join('\n');
  return { html, hiddenLines, shownLines: shown.length };
}

/** Applies \r (back to line start, later text overwrites) and \b (erase one) within each line. */
function resolveLineEdits(text: string): string {
  if (!text.includes('\r') && !text.includes('\b')) return text;
  return text
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => {
      if (!line.includes('\r') && !line.includes('\b')) return line;
      let out = '';
      for (const part of line.split('\r')) out = part.length >= out.length ? part : part + out.slice(part.length);
      // eslint-disable-next-line no-control-regex
      while (out.includes('\b')) out = out.replace(/[^\x08]?\x08/, '');
      return out;
    })
    .join('\n');
}

// ESC [ params letter (CSI), ESC ] … BEL/ST (OSC), or a lone two-character escape.
// eslint-disable-next-line no-control-regex
const ESCAPE = /\u001b\[([0-9;?]*)([A-Za-z])|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]/g;

function renderLine(line: string, style: Style): string {
  let out = open(style);
  let last = 0;
  for (const m of line.matchAll(ESCAPE)) {
    out += escapeHtml(line.slice(last, m.index));
    last = (m.index ?? 0) + m[0].length;
    if (m[2] !== 'm') continue;
    out += close(style);
    applySgr(style, m[1] ?? '');
    out += open(style);
  }
  return out + escapeHtml(line.slice(last)) + close(style);
}

function applySgr(style: Style, params: string): void {
  const codes = params === '' ? [0] : params.split(';').map(Number);
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i] ?? 0;
    if (c === 0) Object.assign(style, { fg: null, bold: false });
    else if (c === 1) style.bold = true;
    else if (c === 22) style.bold = false;
    else if (c >= 30 && c <= 37) style.fg = `ansi-${BASIC[c - 30]}`;
    else if (c >= 90 && c <= 97) style.fg = `ansi-bright-${BASIC[c - 90]}`;
    else if (c === 39) style.fg = null;
    else if (c === 38) i += codes[i + 1] === 5 ? 2 : 4; // 256-colour and RGB: not mapped, skipped
  }
}

const open = (s: Style) => (s.fg || s.bold ? `<span class="${[s.fg, s.bold && 'ansi-bold'].filter(Boolean).join(' ')}">` : '');
const close = (s: Style) => (s.fg || s.bold ? '</span>' : '');
