import { useMemo, useState } from 'react';
import { SAVED_OUTPUT_MAX_LINES } from '@contract/limits';
import { countRows } from '@contract/output-rows';
import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';
import type { StreamPart } from './output-groups';
import { partsHtml, type TextPart } from './stream-html';

/**
 * A block of a finished run's text of which main sent only the rows drawn (core/bridge/page-cells.ts):
 * its head, a marker of the rows left out, its tail. The note counts the rows not shown and "show more"
 * brings the next of them, a page at a time, below the head — every row of the output stays
 * reachable, and the page is never sent a million of them at once (issue 25 item 13).
 * `wholeLines`: the run passed the cap; its whole output (the "full output" file) had this many rows,
 * more than the cell kept, and the note counts those too.
 */
export function CutStreamBlock({ parts, wholeLines, cellId }: { parts: StreamPart[]; wholeLines?: number; cellId: string }) {
  const conversationId = useApp((s) => s.current?.conv.id);
  const at = parts.findIndex((p) => p.name === 'cut');
  const cut = parts[at] as Extract<StreamPart, { name: 'cut' }>;
  const { head, tail, beyond } = useMemo(() => {
    const text = (ps: StreamPart[]) => ps.filter((p): p is TextPart => p.name !== 'cut');
    const before = text(parts.slice(0, at));
    const after = text(parts.slice(at + 1));
    const shown = [...before, ...after].reduce((n, p) => n + countRows(p.text), 0);
    return {
      head: partsHtml(before, true),
      tail: partsHtml(after, false),
      beyond: Math.max(0, (wholeLines ?? 0) - shown - cut.rows),
    };
  }, [parts, at, cut.rows, wholeLines]);
  const [pages, setPages] = useState<string[]>([]);
  const [fetched, setFetched] = useState(0);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const left = cut.rows - fetched;
  const hidden = left + beyond;

  const more = () => {
    if (!conversationId || busy) return;
    setBusy(true);
    setProblem(null);
    bridge['cell.output-rows']({ conversationId, cellId, cut: cut.cut, from: fetched, count: Math.min(SAVED_OUTPUT_MAX_LINES, left) })
      .then(({ outputs, rowsLeft }) => {
        const got = outputs.map((o): TextPart => ({ name: o.appNote ? 'note' : o.name, text: o.text }));
        setPages((p) => [...p, partsHtml(got, true)]);
        setFetched(cut.rows - rowsLeft);
      })
      .catch(() => setProblem('The rest of the output could not be loaded: run the cell again, or export the conversation.'))
      .finally(() => setBusy(false));
  };

  return (
    <div className="saved-output" data-testid="terminal" role="region" aria-label="Output" data-hidden-lines={hidden || undefined}>
      <pre>
        <span dangerouslySetInnerHTML={{ __html: head }} />
        {pages.map((html, i) => (
          <span key={i} dangerouslySetInnerHTML={{ __html: html }} />
        ))}
        {hidden > 0 && (
          <>
            <span className="lines-hidden" data-testid="lines-hidden">
              … {hidden.toLocaleString()} lines not shown (the middle) …
            </span>
            {left > 0 && (
              <button type="button" className="link lines-more" data-testid="lines-more" disabled={busy} onClick={more}>
                show {Math.min(SAVED_OUTPUT_MAX_LINES, left).toLocaleString()} more
              </button>
            )}
            {problem && <span className="lines-problem"> {problem}</span>}
            {'\n'}
          </>
        )}
        <span dangerouslySetInnerHTML={{ __html: tail }} />
      </pre>
    </div>
  );
}
