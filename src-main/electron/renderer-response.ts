import { policyForPath } from '../core/security/content-security-policy';
import { readRendererFile } from '../core/security/renderer-files';
import { APP_HOST } from './app-origin';

/**
 * The answer to one app:// request: a file of the built renderer with its Content-Security-Policy as a
 * real header (file:// pages cannot carry one) — the output frame's own policy for its page, the app's
 * for every other — or a refusal. readRendererFile refuses anything that resolves outside the
 * renderer folder: `..` (also percent-encoded), absolute paths, links leading out. Pure: the shell
 * only wires it to protocol.handle, so it is unit-tested under Node.
 */
export async function rendererResponse(rendererDir: string, requestUrl: string): Promise<Response> {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return text(400, 'bad request');
  }
  if (url.host !== APP_HOST) return text(404, 'not found');
  const file = await readRendererFile(rendererDir, url.pathname);
  if (!file) return text(404, 'not found');
  return new Response(new Uint8Array(file.body), {
    status: 200,
    headers: {
      'content-type': file.type,
      'content-security-policy': policyForPath(url.pathname),
      'x-content-type-options': 'nosniff',
    },
  });
}

function text(status: number, body: string): Response {
  return new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' } });
}
