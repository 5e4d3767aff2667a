import { memo, Suspense } from 'react';
import { lazyNamed } from '../common/lazy-named';

// marked, DOMPurify and the highlighter are not needed to show the window and its message box, so they
// load on demand (their own chunk); until then the text shows as it is, in the same block.
const loadMarkdownHtml = () => import('./MarkdownHtml');
const MarkdownHtml = lazyNamed(loadMarkdownHtml, 'MarkdownHtml');

/** Fetches the markdown chunk ahead of need (once the window is up), so answers rarely show the plain text. */
export function preloadMarkdown(): void {
  void loadMarkdownHtml().catch(() => undefined);
}

/** Sanitised markdown (MarkdownHtml.tsx), once its chunk has loaded. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <Suspense fallback={<div className="markdown markdown-plain">{text}</div>}>
      <MarkdownHtml text={text} />
    </Suspense>
  );
});
