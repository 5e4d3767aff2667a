import DOMPurify from 'dompurify';

// Markdown from the model, from an imported notebook (its markdown cells and text/markdown outputs)
// is untrusted HTML. DOMPurify's defaults keep it from running script, but not from placing things:
// `style` (position:fixed, z-index), a class of the app's own CSS (.modal-backdrop is a fixed full-page
// layer), `popover` (the top layer) or `<dialog>` can draw fake code over the approval card while
// clicks pass through to the real Run button. So the sanitiser keeps only what markdown itself makes,
// plus the few HTML tags people write in notebooks, with attributes that cannot position anything;
// and `.markdown` is a paint-contained, isolated block (chat.css), so even a rule we missed stays
// inside its own box. The attack test is test/security/attacks/markdown-overlay.e2e.test.ts.

const ALLOWED_TAGS = [
  // What marked emits for CommonMark + GFM.
  'a',
  'blockquote',
  'br',
  'code',
  'del',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'img',
  'li',
  'ol',
  'p',
  'pre',
  'strong',
  'table',
  'tbody',
  'td',
  'th',
  'thead',
  'tr',
  'ul',
  // Our code blocks (render-markdown.ts) and the highlighter's token spans.
  'button',
  'div',
  'span',
  // Inline HTML common in notebooks and model answers.
  'abbr',
  'b',
  'caption',
  'dd',
  'details',
  'dl',
  'dt',
  'i',
  'kbd',
  'mark',
  's',
  'samp',
  'small',
  'sub',
  'summary',
  'sup',
  'tfoot',
  'u',
  'var',
];

// No style, class (filtered below), id, name, popover*, or event handlers: nothing that positions,
// layers or names an element the app's CSS or scripts know.
const ALLOWED_ATTR = [
  'href',
  'title',
  'alt',
  'src',
  'width',
  'height',
  'align',
  'colspan',
  'rowspan',
  'start',
  'open',
  'target',
  'rel',
  'type',
  'data-copy-code',
];

/**
 * Classes our own renderer adds; any other class could borrow the app's layout rules. They, and the
 * copy button's `data-copy-code`, stay only inside a code block our renderer made (marked with this
 * render's nonce): raw HTML in the markdown dressed as a code block (a `<details>` hiding
 * `; curl … | sh` inside its <pre>) would otherwise get a Copy button that copies what is not shown.
 */
const OWN_CLASS = /^(?:code-block|code-head|copy-code|small|hl|tok-[a-z]+)$/;
const OWN_MARK = 'data-oi-own';

let instance: ReturnType<typeof DOMPurify> | null = null;
/** The nonce of the render being sanitised, and the code blocks found to carry it. */
let currentMark = '';
let ownBlocks = new WeakSet<Node>();

function insideOwnBlock(node: Node): boolean {
  for (let at: Node | null = node; at; at = at.parentNode) if (ownBlocks.has(at)) return true;
  return false;
}

function purifier(): ReturnType<typeof DOMPurify> {
  if (instance) return instance;
  // An instance of our own, so these hooks never affect another DOMPurify user in the page.
  const purify = DOMPurify(window);
  // Parents are sanitised before their children: a block is known as ours before its insides are.
  purify.addHook('uponSanitizeElement', (node) => {
    if (currentMark && node instanceof Element && node.getAttribute(OWN_MARK) === currentMark) ownBlocks.add(node);
  });
  purify.addHook('uponSanitizeAttribute', (node, data) => {
    if (data.attrName === 'data-copy-code') {
      data.keepAttr = insideOwnBlock(node);
      return;
    }
    if (data.attrName !== 'class') return;
    const kept = insideOwnBlock(node) ? data.attrValue.split(/\s+/).filter((c) => OWN_CLASS.test(c)) : [];
    data.attrValue = kept.join(' ');
    data.keepAttr = kept.length > 0;
    data.forceKeepAttr = kept.length > 0;
  });
  // Links leave the app: a new browser tab in browser mode, the OS browser in the desktop app.
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.getAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
    if (node.tagName === 'BUTTON') node.setAttribute('type', 'button');
    // An image at a workspace path (a notebook's attachment written out on import): the page must
    // not fetch it from its own origin; Markdown.tsx loads it from the workspace instead.
    const src = node.tagName === 'IMG' ? node.getAttribute('src') : null;
    if (src && isWorkspacePath(src)) {
      node.removeAttribute('src');
      node.setAttribute('data-workspace-src', safeDecode(src));
    }
  });
  instance = purify;
  return purify;
}

/** A relative path without a scheme, a leading slash or a way up: a file in the conversation's workspace. */
export function isWorkspacePath(src: string): boolean {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(src) || src.startsWith('/') || src.startsWith('\\') || src.startsWith('#')) return false;
  return !safeDecode(src).split(/[\\/]/).includes('..');
}

function safeDecode(src: string): string {
  try {
    return decodeURI(src);
  } catch {
    return src;
  }
}

/**
 * Untrusted HTML (from markdown) reduced to what cannot run, load frames, or draw outside its block.
 * `ownMark`: the nonce render-markdown.ts put on the code blocks it made (none: no element is ours).
 */
export function sanitizeMarkdownHtml(html: string, ownMark = ''): string {
  currentMark = ownMark;
  ownBlocks = new WeakSet();
  try {
    return purifier().sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR, ALLOW_DATA_ATTR: false, ALLOW_ARIA_ATTR: false });
  } finally {
    currentMark = '';
  }
}
