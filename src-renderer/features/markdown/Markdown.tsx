import { memo, useDeferredValue, useMemo, type MouseEvent } from 'react';
import { copyText } from '../common/copy-text';
import { renderMarkdown } from './render-markdown';

/** Sanitised markdown. While text streams in, parsing is deferred so typing and scrolling stay smooth. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const deferred = useDeferredValue(text);
  const html = useMemo(() => renderMarkdown(deferred), [deferred]);
  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const button = (e.target as Element).closest('[data-copy-code]');
    if (!button) return;
    const code = button.closest('.code-block')?.querySelector('pre')?.textContent ?? '';
    void copyText(code).then(() => {
      button.textContent = 'Copied';
      setTimeout(() => (button.textContent = 'Copy'), 1200);
    });
  };
  return <div className="markdown" onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
});
