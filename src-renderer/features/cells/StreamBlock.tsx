import { useMemo } from 'react';
import { ansiToHtml, SAVED_OUTPUT_MAX_LINES } from './ansi-to-html';
import type { StreamPart } from './output-groups';

/**
 * A finished run's text as coloured HTML (ansiToHtml escapes everything it emits), stdout and stderr
 * in the order written, in one block so a prompt and its answer stay on one line. stderr is marked
 * apart: its own colour and a "stderr" label where each stretch of it starts (drawn by CSS, so a copy
 * of the text does not hold it). At most SAVED_OUTPUT_MAX_LINES trailing lines are drawn.
 */
export function StreamBlock({ parts }: { parts: StreamPart[] }) {
  const { html, hiddenLines } = useMemo(() => {
    let budget = SAVED_OUTPUT_MAX_LINES;
    let hidden = 0;
    const pieces: string[] = [];
    for (let i = parts.length - 1; i >= 0; i--) {
      const part = parts[i] as StreamPart;
      const rendered = ansiToHtml(part.text, budget);
      hidden += rendered.hiddenLines;
      budget -= rendered.shownLines;
      if (rendered.shownLines === 0) continue;
      const body = rendered.html + (part.text.endsWith('\n') && i < parts.length - 1 ? '\n' : '');
      pieces.unshift(
        part.name === 'stderr' ? `<span class="stream-stderr" data-stream="stderr" title="printed to stderr">${body}</span>` : body,
      );
    }
    return { html: pieces.join(''), hiddenLines: hidden };
  }, [parts]);
  return (
    <div className="saved-output" data-testid="terminal" role="region" aria-label="Output">
      {hiddenLines > 0 && <div className="muted small">… {hiddenLines.toLocaleString()} earlier lines not shown</div>}
      <pre dangerouslySetInnerHTML={{ __html: html }} />
    </div>
  );
}
