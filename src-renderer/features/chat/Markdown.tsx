import { useMemo } from 'react';
import DOMPurify from 'dompurify';
import { marked } from 'marked';

/** The model's prose as sanitised markdown: it may contain anything, including HTML. */
export function Markdown({ text }: { text: string }) {
  const html = useMemo(() => DOMPurify.sanitize(marked.parse(text, { async: false, gfm: true, breaks: false })), [text]);
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
