import { escapeHtml } from './escape-html';
import { languageDef, type LanguageDef } from './languages';

export { escapeHtml };

// A small highlighter of our own (no package is installed for it): one combined regex per language,
// applied left to right. It returns escaped HTML, so its output is safe to place as markup.

const compiled = new Map<LanguageDef, RegExp>();

function regexFor(def: LanguageDef): RegExp {
  let re = compiled.get(def);
  if (!re) {
    re = new RegExp(def.rules.map(([, source]) => `(${source})`).join('|'), `gm${def.caseInsensitive ? 'i' : ''}`);
    compiled.set(def, re);
  }
  return re;
}

/** Beyond this size highlighting is skipped: a 2 MB data dump is read, not admired. */
export const MAX_HIGHLIGHT_CHARS = 200_000;

/** A stretch of the code and its token kind (null: not a token). */
type Piece = [token: string | null, text: string];

/** The code cut into tokens and the text between them; unknown languages (or huge code) come back as one piece. */
function pieces(code: string, language: string): Piece[] {
  const def = languageDef(language);
  if (!def || code.length > MAX_HIGHLIGHT_CHARS) return [[null, code]];
  const re = regexFor(def);
  re.lastIndex = 0;
  const out: Piece[] = [];
  let last = 0;
  for (let m = re.exec(code); m; m = re.exec(code)) {
    if (m[0] === '') {
      re.lastIndex++; // a lookahead-only match must not stall the loop
      continue;
    }
    const group = m.findIndex((g, i) => i > 0 && g !== undefined);
    out.push([null, code.slice(last, m.index)], [def.rules[group - 1]?.[0] ?? 'plain', m[0]]);
    last = m.index + m[0].length;
  }
  out.push([null, code.slice(last)]);
  return out;
}

const pieceHtml = ([token, text]: Piece): string =>
  token === null ? escapeHtml(text) : text && `<span class="tok-${token}">${escapeHtml(text)}</span>`;

/** The code as HTML with `<span class="tok-…">` around tokens; unknown languages come back escaped only. */
export function highlight(code: string, language: string): string {
  return pieces(code, language).map(pieceHtml).join('');
}

/**
 * The same HTML cut at each newline (which is left out): one string per line of the code, a token that
 * spans lines (a docstring) closed at each line's end and opened again on the next, so each line
 * stands alone as markup — the approval card wraps and marks each line by itself (CodeLines.tsx).
 */
export function highlightLines(code: string, language: string): string[] {
  const lines = [''];
  for (const [token, text] of pieces(code, language)) {
    text.split('\n').forEach((part, i) => {
      if (i > 0) lines.push('');
      lines[lines.length - 1] += pieceHtml([token, part]);
    });
  }
  return lines;
}
