// The parent's side of the conversation with src-renderer/public/output-frame.html (which speaks the
// same two message types from its inline bootstrap).

/** Served beside index.html with its own Content-Security-Policy; loaded by URL, not srcdoc, so it does not inherit the app's. */
export const OUTPUT_FRAME_URL = 'output-frame.html';
/** Taller content scrolls inside the frame rather than pushing the conversation apart. */
export const MAX_OUTPUT_FRAME_HEIGHT = 720;

/**
 * Added on top of the frame's own policy for content that did not come from a run in this app (a
 * notebook file previewed from the workspace): like Jupyter with an untrusted notebook, its scripts do
 * not run, and it loads nothing from the network (no tracking pixels, no CDN code).
 */
export const NO_SCRIPTS_POLICY = "script-src 'none'; img-src data: blob:; font-src data:; media-src data: blob:; style-src 'unsafe-inline'";

/**
 * Added on top of the frame's own policy for an MCP server's interactive UI (docs/mcp.md): its inline
 * scripts run, but it loads nothing from anywhere (no CDN code, no images or fonts from the network,
 * no fetch): what it shows is what the server sent.
 */
export const MCP_UI_POLICY =
  "script-src 'unsafe-inline' 'unsafe-eval'; style-src 'unsafe-inline'; img-src data: blob:; font-src data:; media-src data: blob:; connect-src 'none'; frame-src 'none'; form-action 'none'";

export interface HtmlMessage {
  type: 'oi-output-html';
  html: string;
  /** A stricter policy the frame writes as a <meta> before the content; none for trusted content. */
  policy?: string;
}

/**
 * Parent → frame, once: the HTML to write, whether its scripts may run, and a stricter policy for it
 * when they do (MCP_UI_POLICY); content whose scripts may not run always gets NO_SCRIPTS_POLICY.
 */
export function htmlMessage(html: string, scripts = true, policy?: string): HtmlMessage {
  if (!scripts) return { type: 'oi-output-html', html, policy: NO_SCRIPTS_POLICY };
  return policy ? { type: 'oi-output-html', html, policy } : { type: 'oi-output-html', html };
}

/**
 * Frame → parent: the content's height. The frame runs untrusted scripts that can post anything, so
 * only a finite, non-negative number is taken, rounded up and capped.
 */
export function reportedHeight(data: unknown): number | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, height } = data as { type?: unknown; height?: unknown };
  if (type !== 'oi-output-height' || typeof height !== 'number' || !Number.isFinite(height) || height < 0) return null;
  return Math.min(Math.ceil(height), MAX_OUTPUT_FRAME_HEIGHT);
}

const MAX_LINK_LENGTH = 8192;

/**
 * Frame → parent: a link the user clicked in the output (the frame may not open windows itself).
 * Only http(s) URLs are taken; the content could post this message itself, so the parent also
 * requires a user gesture before it opens anything.
 */
export function clickedLink(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, url } = data as { type?: unknown; url?: unknown };
  if (type !== 'oi-output-link' || typeof url !== 'string' || url.length > MAX_LINK_LENGTH) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}
