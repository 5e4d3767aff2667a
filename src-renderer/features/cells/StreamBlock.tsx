import { useMemo } from 'react';
import { SAVED_OUTPUT_MAX_LINES } from './ansi-to-html';
import { countRows, keptRows } from './head-tail-lines';
import type { StreamPart } from './output-groups';
import { CutStreamBlock } from './CutStreamBlock';
import { partsHtml, piece, type TextPart } from './stream-html';

/**
 * A finished run's text as coloured HTML (ansiToHtml escapes everything it emits), stdout and stderr
 * in the order written, in one block so a prompt and its answer stay on one line. stderr is marked
 * apart: its own colour and a "stderr" label where each stretch of it starts (drawn by CSS, so a copy
 * of the text does not hold it). At most SAVED_OUTPUT_MAX_LINES lines are drawn: the first half and
 * the last half, with a line saying how many between are not shown (head and tail, never a slice;
 * issue 12 #8). A run past the cap brings only its head and tail: its "full output" link opens all of it.
 * Main sends the page only those rows, with a marker where the rest is: CutStreamBlock draws that.
 */
export function StreamBlock({ parts, wholeLines, cellId }: { parts: StreamPart[]; wholeLines?: number; cellId: string }) {
  return parts.some((p) => p.name === 'cut') ? (
    <CutStreamBlock parts={parts} wholeLines={wholeLines} cellId={cellId} />
  ) : (
    <WholeStreamBlock parts={parts as TextPart[]} wholeLines={wholeLines} />
  );
}

function WholeStreamBlock({ parts, wholeLines }: { parts: TextPart[]; wholeLines?: number }) {
  const { html, hiddenLines } = useMemo(() => render(parts, wholeLines), [parts, wholeLines]);
  return (
    <div className="saved-output" data-testid="terminal" role="region" aria-label="Output" data-hidden-lines={hiddenLines || undefined}>
      <pre dangerouslySetInnerHTML={{ __html: html }} />
    </div>
  );
}

const HALF = SAVED_OUTPUT_MAX_LINES / 2;

/**
 * Each part's lines, and which of them are drawn: the first HALF and the last HALF of all of them.
 * `wholeLines`: the run's whole output had this many lines (it passed the cap, and the parts are its
 * head and tail), so the note counts the lines really left out, not just those of the parts.
 */
function render(parts: TextPart[], wholeLines?: number): { html: string; hiddenLines: number } {
  const counts = parts.map((p) => countRows(p.text));
  const total = counts.reduce((a, b) => a + b, 0);
  if (total <= SAVED_OUTPUT_MAX_LINES) return { html: partsHtml(parts, false), hiddenLines: 0 };
  const hidden = Math.max(total, wholeLines ?? 0) - SAVED_OUTPUT_MAX_LINES;
  const kept = keptRows(
    parts.map((p) => p.text),
    counts,
    total,
    HALF,
  );
  const out: string[] = [];
  let seen = 0;
  let noted = false;
  parts.forEach((part, i) => {
    const { head, tail } = kept[i] ?? { head: '', tail: '' };
    seen += counts[i] ?? 0;
    if (head) out.push(piece(part, head, true));
    if (!noted && seen > HALF) {
      noted = true;
      out.push(
        `<span class="lines-hidden" data-testid="lines-hidden">… ${hidden.toLocaleString()} lines not shown (the middle) …</span>\n`,
      );
    }
    if (tail) out.push(piece(part, tail, i < parts.length - 1));
  });
  return { html: out.join(''), hiddenLines: hidden };
}
