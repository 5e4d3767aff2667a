/**
 * One policy for both the desktop window and browser mode: only our own scripts, no eval, no remote
 * content; images may be data:/blob: (plots, previews); rich HTML outputs run in sandboxed frames.
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
