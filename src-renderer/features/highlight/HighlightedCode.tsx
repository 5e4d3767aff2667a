import { useMemo } from 'react';
import { highlight } from './highlight';

/** Code with syntax colours. highlight() escapes everything, so its markup is safe to insert. */
export function HighlightedCode({ code, language, className, testId }: { code: string; language: string; className?: string; testId?: string }) {
  const html = useMemo(() => highlight(code, language), [code, language]);
  return (
    <pre className={className} data-testid={testId}>
      <code className={`hl language-${language}`} dangerouslySetInnerHTML={{ __html: html }} />
    </pre>
  );
}
