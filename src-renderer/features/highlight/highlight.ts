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

/** The code as HTML with `<span class="tok-…">` around tokens; unknown languages come back escaped only. */
export function highlight(code: string, language: string): string {
  const def = languageDef(language);
  if (!def || code.length > MAX_HIGHLIGHT_CHARS) return escapeHtml(code);
  const re = regexFor(def);
  re.lastIndex = 0;
  let out = '';
  let last = 0;
  for (let m = re.exec(code); m; m = re.exec(code)) {
    if (m[0] === '') {
      re.lastIndex++; // a lookahead-only match must not stall the loop
      continue;
    }
    const group = m.findIndex((g, i) => i > 0 && g !== undefined);
    const token = def.rules[group - 1]?.[0] ?? 'plain';
    out += escapeHtml(code.slice(last, m.index));
    out += `<span class="tok-${token}">${escapeHtml(m[0])}</span>`;
    last = m.index + m[0].length;
  }
  return out + escapeHtml(code.slice(last));
}
