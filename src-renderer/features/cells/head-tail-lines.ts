// The rows of a finished run's text that the saved view draws: all of them up to a cap, else the
// first half and the last half. Found by scanning for newlines rather than splitting: a million-line
// run would otherwise allocate a million strings on the page's main thread to keep four thousand
// (issue 25 item 13: the page stopped painting for seconds). Main now sends the page no more rows
// than it draws (core/bridge/page-cells.ts); this still cuts text that comes whole.

import { countRows } from '@contract/output-rows';

/** Rows as `text.split('\n')` counts them (the contract's rule, which main cuts by too). */
export { countRows };

/** The first `count` rows of `text`, each ending in a newline. */
export function firstRows(text: string, count: number): string {
  if (count <= 0) return '';
  let end = -1;
  for (let k = 0; k < count; k++) {
    const nl = text.indexOf('\n', end + 1);
    if (nl < 0) return text.endsWith('\n') ? text : `${text}\n`;
    end = nl;
  }
  return text.slice(0, end + 1);
}

/** The last `count` rows of `text`, each ending in a newline. */
export function lastRows(text: string, count: number): string {
  if (count <= 0) return '';
  const bodyEnd = text.endsWith('\n') ? text.length - 1 : text.length;
  let p = bodyEnd;
  let start = 0;
  for (let k = 0; k < count; k++) {
    const nl = p > 0 ? text.lastIndexOf('\n', p - 1) : -1;
    if (nl < 0) {
      start = 0;
      break;
    }
    p = nl;
    start = nl + 1;
  }
  return `${text.slice(start, bodyEnd)}\n`;
}

export interface RowsKept {
  /** Rows before the cut, each ending in a newline ('' when none). */
  head: string;
  /** Rows after the cut, each ending in a newline ('' when none). */
  tail: string;
}

/**
 * For parts of one output holding `counts[i]` rows each (`total` in all), the rows each part keeps
 * when only the first `half` and the last `half` rows of all of them are drawn.
 */
export function keptRows(texts: string[], counts: number[], total: number, half: number): RowsKept[] {
  let seen = 0;
  return texts.map((text, i) => {
    const n = counts[i] ?? 0;
    const headCount = Math.min(n, Math.max(0, half - seen));
    const tailFrom = Math.max(headCount, total - half - seen);
    seen += n;
    return { head: firstRows(text, headCount), tail: tailFrom < n ? lastRows(text, n - tailFrom) : '' };
  });
}
