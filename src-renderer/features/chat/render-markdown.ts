import DOMPurify from 'dompurify';
import { Marked, type Tokens } from 'marked';
import { escapeHtml, highlight } from '../highlight/highlight';

// The model's prose may contain anything, HTML included: it is parsed by marked, then sanitised by
// DOMPurify before it reaches the page. Code blocks get our highlighter and a copy button (handled by
// delegation in Markdown.tsx, since sanitised markup carries no handlers).

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    code(token: Tokens.Code): string {
      const lang = (token.lang ?? '').trim().split(/\s+/)[0] ?? '';
      const body = lang ? highlight(token.text, lang) : escapeHtml(token.text);
      return (
        `<div class="code-block"><div class="code-head"><span>${escapeHtml(lang || 'text')}</span>` +
        `<button type="button" class="small copy-code" data-copy-code="1">Copy</button></div>` +
        `<pre><code class="hl">${body}</code></pre></div>`
      );
    },
  },
});

let hooked = false;
function purifier(): typeof DOMPurify {
  if (!hooked) {
    hooked = true;
    // Links leave the app: a new browser tab in browser mode, the OS browser in the desktop app.
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A' && node.getAttribute('href')) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
    });
  }
  return DOMPurify;
}

export function renderMarkdown(text: string): string {
  const html = marked.parse(text, { async: false });
  return purifier().sanitize(html, { ADD_ATTR: ['target'], FORBID_TAGS: ['style', 'form', 'input', 'textarea', 'select'] });
}
