import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { protocol } from 'electron';
import { policyForPath } from '../core/security/content-security-policy';
import { APP_SCHEME } from './app-origin';
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};
/** Must run before the app is ready: our scheme behaves like a secure standard origin. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}
/**
 * Serves the built renderer from app://renderer with its CSP as a real header (file:// pages cannot
 * carry one), and refuses any path that leaves the renderer folder.
 */
export function serveRenderer(rendererDir: string): void {
  const root = path.resolve(rendererDir);
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== 'renderer') return new Response('not found', { status: 404 });
    const rel = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname);
    const file = path.resolve(root, '.' + path.posix.normalize(rel));
    if (!file.startsWith(root + path.sep)) return new Response('forbidden', { status: 403 });
    try {
      const body = await readFile(file);
      return new Response(body, {
        headers: {
          'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
          // The output frame gets its own policy (scripts, in an opaque origin); every other path the app's.
          'content-security-policy': policyForPath(url.pathname),
          'x-content-type-options': 'nosniff',
        },
      });
    } catch {
      return new Response('not found', { status: 404 });
    }
  });
}
