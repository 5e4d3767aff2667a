import { useMemo } from 'react';
import { ansiToHtml } from './ansi-to-html';

/** A finished run's terminal text, as coloured HTML (ansiToHtml escapes everything it emits). */
export function SavedOutput({ text }: { text: string }) {
  const { html, hiddenLines } = useMemo(() => ansiToHtml(text), [text]);
  return (
    <div className="saved-output" data-testid="terminal" role="region" aria-label="Output">
      {hiddenLines > 0 && <div className="muted small">… {hiddenLines.toLocaleString()} earlier lines not shown</div>}
      <pre dangerouslySetInnerHTML={{ __html: html }} />
    </div>
  );
}
