import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { Id } from '@contract';
import { openWorkspaceFile, readOpened, WorkspaceFileError, type WorkspaceFileRefusal } from '../core/workspace/open-workspace-file';
import type { WorkspaceLookup } from './workspace-lookup';
import { FILES_PREFIX } from './routes';

// Whatever the file holds (HTML, SVG, a PDF with scripts), it is never rendered as a page of our
// origin: always an attachment, never sniffed, and in a sandboxed opaque origin should a browser
// render it anyway. Same-origin only, so no other site can even embed the bytes.
const DOWNLOAD_HEADERS = {
  'content-type': 'application/octet-stream',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
} as const;

const STATUS: Record<WorkspaceFileRefusal, number> = { outside: 403, 'not-a-file': 403, missing: 404 };

export type Refuse = (status: number, message: string) => void;

/**
 * Streams one workspace file as a download. The caller has already checked Host, method and token.
 * The path is taken from the raw request target, not the parsed URL: URL parsing would resolve
 * `..` (even `%2e%2e`) before we see it, silently turning a refused path into another one.
 */
export async function serveWorkspaceFile(
  req: IncomingMessage,
  res: ServerResponse,
  workspaceOf: WorkspaceLookup,
  refuse: Refuse,
): Promise<void> {
  const target = parseTarget(rawPath(req.url ?? '/'));
  if ('error' in target) return refuse(400, target.error);
  const root = await workspaceOf(target.conversationId);
  if (root === null) return refuse(404, `no conversation with id ${target.conversationId}`);
  let file;
  try {
    file = await openWorkspaceFile(root, target.path);
  } catch (err) {
    if (err instanceof WorkspaceFileError) return refuse(STATUS[err.refusal], err.message);
    throw err;
  }
  try {
    res.writeHead(200, { ...DOWNLOAD_HEADERS, 'content-length': String(file.size), 'content-disposition': attachment(file.name) });
    if (req.method === 'HEAD') return void res.end();
    // Streamed from the open handle: memory stays flat whatever the size. A client that goes away
    // mid-download rejects the pipeline; there is nobody left to tell.
    await pipeline(readOpened(file), res).catch(() => undefined);
  } finally {
    await file.handle.close();
  }
}

/** The path part of the request target as sent (the server routes here only on a `/files/` start). */
function rawPath(target: string): string {
  const end = target.search(/[?#]/);
  return end < 0 ? target : target.slice(0, end);
}

function parseTarget(pathname: string): { conversationId: string; path: string } | { error: string } {
  const rest = pathname.slice(FILES_PREFIX.length);
  const slash = rest.indexOf('/');
  const rawId = slash < 0 ? rest : rest.slice(0, slash);
  let conversationId: string;
  let path: string;
  try {
    conversationId = decodeURIComponent(rawId);
    path = slash < 0 ? '' : decodeURIComponent(rest.slice(slash + 1));
  } catch {
    return { error: 'the URL is not validly percent-encoded' };
  }
  if (!Id.safeParse(conversationId).success) return { error: `"${conversationId}" is not a conversation id` };
  if (path === '') return { error: `name a file: ${FILES_PREFIX}<conversation id>/<path in its workspace>` };
  return { conversationId, path };
}

/**
 * `attachment` with the real name in RFC 6266/8187 form (any Unicode), and a plain ASCII fallback for
 * old clients. Both are built from escaped characters only, so no name can inject a header.
 */
export function attachment(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
