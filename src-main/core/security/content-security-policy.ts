/**
 * The two policies the app serves, kept in one module so they are reviewed side by side.
 *
 * The app page: only our own scripts, no eval, no remote content; images may be data:/blob: (plots,
 * previews); rich HTML outputs run in the output frame below.
 */
export function contentSecurityPolicy(connectSrc: string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${connectSrc.join(' ')}`.trim(),
    "frame-src 'self' blob: data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The static page rich HTML outputs are written into (src-renderer/public/output-frame.html). */
export const OUTPUT_FRAME_PATH = '/output-frame.html';

/**
 * The output frame: plotly, bokeh, vega and the like need inline scripts, eval and their CDNs, so
 * scripts run here — but in an opaque origin (the `sandbox` directive, on top of the iframe's own
 * sandbox attribute), with no network of its own (`connect-src 'none'`) and nothing loaded from our
 * server (no 'self' anywhere), so it cannot reach the app, its cookie or its bridge. No child frames
 * either: a nested data: or https: document would not be bound by this policy's connect-src.
 */
const OUTPUT_FRAME_DIRECTIVES = [
  "default-src 'none'",
  "script-src 'unsafe-inline' 'unsafe-eval' https:",
  "style-src 'unsafe-inline' https:",
  'img-src data: blob: https:',
  'font-src data: https:',
  // IPython's Audio and Video outputs are text/html with data: sources.
  'media-src data: blob: https:',
  "connect-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
];

/** Directives a <meta> tag cannot deliver (browsers ignore them there): header only. */
const OUTPUT_FRAME_HEADER_ONLY = ["frame-ancestors 'self'", 'sandbox allow-scripts'];

/** The frame's policy as a response header. */
export function outputFrameContentSecurityPolicy(): string {
  return [...OUTPUT_FRAME_DIRECTIVES, ...OUTPUT_FRAME_HEADER_ONLY].join('; ');
}

/** The same policy minus the header-only directives: the <meta> in the frame file, for the dev server. */
export function outputFrameMetaPolicy(): string {
  return OUTPUT_FRAME_DIRECTIVES.join('; ');
}

/**
 * The policy for a response of the built renderer, by URL path: the frame page gets its own, every
 * other path the app's. Both servers (browser mode, the app:// protocol) decide through this.
 */
export function policyForPath(pathname: string, connectSrc: string[] = []): string {
  return pathname === OUTPUT_FRAME_PATH ? outputFrameContentSecurityPolicy() : contentSecurityPolicy(connectSrc);
}
