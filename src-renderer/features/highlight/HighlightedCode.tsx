import { useEffect, useMemo, useState } from 'react';
import { escapeHtml } from './escape-html';

// The highlighter (its language table) loads on demand, in its own chunk; until it has, the code
// shows escaped and uncoloured, so it is never hidden — the approval card always shows the real code.
type Highlighter = typeof import('./highlight');
let loaded: Highlighter | null = null;
let loading: Promise<Highlighter> | null = null;

export function loadHighlighter(): Promise<Highlighter> {
  loading ??= import('./highlight').then((m) => (loaded = m));
  return loading;
}

/** The highlighter once its chunk has loaded (null until then: show the code escaped and uncoloured). */
export function useHighlighter(): Highlighter | null {
  const [mod, setMod] = useState(loaded);
  useEffect(() => {
    if (mod) return;
    let live = true;
    loadHighlighter().then(
      (m) => live && setMod(m),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [mod]);
  return mod;
}

/** Code with syntax colours. highlight() escapes everything, so its markup is safe to insert. */
export function HighlightedCode({
  code,
  language,
  className,
  testId,
}: {
  code: string;
  language: string;
  className?: string;
  testId?: string;
}) {
  const highlighter = useHighlighter();
  const html = useMemo(() => (highlighter ? highlighter.highlight(code, language) : escapeHtml(code)), [highlighter, code, language]);
  return (
    <pre className={className} data-testid={testId}>
      <code className={`hl language-${language}`} dangerouslySetInnerHTML={{ __html: html }} />
    </pre>
  );
}
