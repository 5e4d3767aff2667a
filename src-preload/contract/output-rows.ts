// A finished cell's text counted in rows, by one rule for main (which sends the page only the rows it
// draws) and the page (which draws them): a module without zod, so the page's first chunk can take it.

/** Rows as `text.split('\n')` counts them, a final newline ending the last row rather than starting one. */
export function countRows(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

/** Where row `k` of `text` starts (0 → 0; past its last row → its length). Scans for newlines, never splits. */
export function rowOffset(text: string, k: number): number {
  let p = 0;
  for (let i = 0; i < k; i++) {
    const nl = text.indexOf('\n', p);
    if (nl < 0) return text.length;
    p = nl + 1;
  }
  return p;
}
