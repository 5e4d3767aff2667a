import { Marked, type Tokens } from 'marked';
import { escapeHtml, highlight } from '../highlight/highlight';
import { sanitizeMarkdownHtml } from './sanitize-markdown';

// The model's prose may contain anything, HTML included: it is parsed by marked, then sanitised by
// sanitize-markdown.ts before it reaches the page. Code blocks get our highlighter and a copy button (handled by
// delegation in Markdown.tsx, since sanitised markup carries no handlers).

// The code blocks this renderer makes are marked with a nonce of this render: only inside them may the
// app's own classes and the copy button's attribute stay (sanitize-markdown.ts). Markdown's raw HTML
// cannot know the nonce, so it cannot dress itself as a code block whose Copy copies something else.
let ownMark = '';

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    code(token: Tokens.Code): string {
      const lang = (token.lang ?? '').trim().split(/\s+/)[0] ?? '';
      const body = lang ? highlight(token.text, lang) : escapeHtml(token.text);
      return (
        `<div class="code-block" data-oi-own="${ownMark}"><div class="code-head"><span>${escapeHtml(lang || 'text')}</span>` +
        `<button type="button" class="small copy-code" data-copy-code="1">Copy</button></div>` +
        `<pre><code class="hl">${body}</code></pre></div>`
      );
    },
  },
});

export function renderMarkdown(text: string): string {
  ownMark = crypto.randomUUID();
  return sanitizeMarkdownHtml(marked.parse(text, { async: false }), ownMark);
}
