import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { MAX_SOCKET_FRAME_BYTES } from '@contract/limits';
import type { Dispatcher } from '../core/bridge/dispatch';
import type { EventBus } from '../core/bridge/event-bus';
import { eventForPage, resultForPage } from '../core/bridge/page-cells';
import { policyForPath } from '../core/security/content-security-policy';
import type { WorkspaceLookup } from './workspace-lookup';
import { RateLimiter } from './rate-limiter';
import { readRendererFile } from '../core/security/renderer-files';
import { FILES_PREFIX } from './routes';
import { cookieValues, newLaunchToken, tokenCookieName, tokenMatches } from './token';
import { frameText } from './frame-text';
import type { ServerFrame } from './ws-protocol';

// The frame schema (zod) and the download route (the workspace checks) load on first use: the server
// answers its first page without them, and main.ts prints the URL before the app is built. The frame
// schema starts loading once the page has been answered, so the page's first requests do not wait for it.
let wsProtocol: Promise<typeof import('./ws-protocol')> | null = null;
const loadWsProtocol = () => (wsProtocol ??= import('./ws-protocol'));

export interface BrowserServerOptions {
  dispatch: Dispatcher;
  /** The app's events, forwarded to every socket. */
  events: Pick<EventBus, 'subscribe'>;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  port?: number;
  host?: string;
  token?: string;
  /** Largest WebSocket frame accepted, in bytes. */
  maxFrameBytes?: number;
  /** Requests per second each socket may make on average, and in a burst. */
  rate?: { perSecond: number; burst: number };
  /**
   * Where a conversation's files are: enables GET /files/<conversationId>/<path>, the page's way to
   * download a workspace file (docs/security.md). Without it that route does not exist.
   */
  workspaceOf?: WorkspaceLookup;
  /** Send cells whole, as before bridge/page-cells.ts: only the UI bench's "before" sets it. */
  wholeCells?: boolean;
}

export interface BrowserServer {
  url: string;
  /** The URL to open: carries the per-launch token. */
  launchUrl: string;
  token: string;
  /** The cookie that carries the token (its name includes the port: cookies are not scoped by port). */
  cookieName: string;
  close(): Promise<void>;
}

// Large enough for an attachment upload; anything bigger is refused by the ws library (close 1009).
const DEFAULT_MAX_FRAME = MAX_SOCKET_FRAME_BYTES;
const DEFAULT_RATE = { perSecond: 100, burst: 300 };

/**
 * Browser mode: the same renderer and the same handler table as the desktop app, over HTTP + a
 * WebSocket. Every request must prove the per-launch token (query on first load, then an HttpOnly
 * SameSite=Strict cookie), come for our own Host, and — for WebSockets — from our own Origin.
 */
export async function startBrowserServer(opts: BrowserServerOptions): Promise<BrowserServer> {
  const token = opts.token ?? newLaunchToken();
  const host = opts.host ?? '127.0.0.1';
  let origin = '';
  let cookieName = '';
  let allowedHosts = new Set<string>();

  // The query on first load, else any cookie of our name that holds the token: a page on another port
  // can add cookies of that name (path=/ws, junk values) but cannot take ours away from the header.
  const authorized = (req: IncomingMessage, url: URL): boolean =>
    tokenMatches(token, url.searchParams.get('token')) || cookieValues(req.headers.cookie, cookieName).some((v) => tokenMatches(token, v));

  // Top-level guard of the HTTP path: whatever a request holds, it gets an answer (or a closed socket)
  // and the process lives on. Anything the handler did not foresee is a 500, logged without the request.
  const server = createServer((req, res) => {
    handleHttp(req, res).catch((err: unknown) => {
      console.warn(`browser mode: a request failed: ${(err as Error)?.message ?? String(err)}`);
      try {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
        res.end('internal error\n');
      } catch {
        res.destroy();
      }
    });
  });

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = requestUrl(req.url, origin);
    if (!url) return refuse(res, 400, 'malformed request target: expected a path starting with /');
    if (!allowedHosts.has(req.headers.host ?? '')) return refuse(res, 421, 'unexpected Host header');
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'method not allowed');
    if (!authorized(req, url)) return refuse(res, 401, 'missing or wrong token: open the URL printed at launch');
    if (opts.workspaceOf && (req.url ?? '').startsWith(FILES_PREFIX)) {
      const { serveWorkspaceFile } = await import('./file-download');
      return serveWorkspaceFile(req, res, opts.workspaceOf, (status, message) => refuse(res, status, message));
    }
    const file = await readRendererFile(opts.rendererDir, url.pathname);
    if (!file) return refuse(res, 404, 'not found');
    const headers: Record<string, string> = {
      'content-type': file.type,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      // The output frame gets its own policy (scripts, in an opaque origin); every other path the app's.
      'content-security-policy': policyForPath(url.pathname, [origin.replace(/^http/, 'ws')]),
    };
    if (url.searchParams.has('token')) {
      headers['set-cookie'] = `${cookieName}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`;
    }
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : file.body);
    if (file.type.startsWith('text/html')) void loadWsProtocol().catch(() => undefined);
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: opts.maxFrameBytes ?? DEFAULT_MAX_FRAME });
  // Top-level guard of the upgrade path. Node hands the raw socket over without an error listener, so
  // a client that resets while we answer would otherwise throw from the socket, and anything thrown in
  // here would reach the process as an uncaught exception.
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    try {
      handleUpgrade(req, socket, head);
    } catch (err) {
      console.warn(`browser mode: an upgrade request failed: ${(err as Error)?.message ?? String(err)}`);
      rejectUpgrade(socket, 500, 'Internal Server Error');
    }
  });

  function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = requestUrl(req.url, origin);
    if (!url) return rejectUpgrade(socket, 400, 'Bad Request');
    if (url.pathname !== '/ws') return rejectUpgrade(socket, 404, 'Not Found');
    if (!allowedHosts.has(req.headers.host ?? '')) return rejectUpgrade(socket, 421, 'Misdirected Request');
    // Browsers always send Origin; a page on another site must not drive our app (CSWSH). The output
    // frame and anything else in an opaque origin sends "null", which is not ours either.
    const reqOrigin = req.headers.origin;
    if (reqOrigin !== undefined && !allowedOrigins().has(reqOrigin)) return rejectUpgrade(socket, 403, 'Forbidden origin');
    if (!authorized(req, url)) return rejectUpgrade(socket, 401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws));
  }

  function allowedOrigins(): Set<string> {
    return new Set([...allowedHosts].map((h) => `http://${h}`));
  }

  const sockets = new Set<WebSocket>();
  function serveSocket(ws: WebSocket): void {
    sockets.add(ws);
    const send = (frame: ServerFrame) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
    };
    const limiter = new RateLimiter(opts.rate?.perSecond ?? DEFAULT_RATE.perSecond, opts.rate?.burst ?? DEFAULT_RATE.burst);
    const unsubscribe = opts.events.subscribe((event) => {
      const ev = opts.wholeCells ? event : eventForPage(event);
      send({ type: 'event', name: ev.name, payload: ev.payload });
    });
    ws.on('close', () => {
      unsubscribe();
      sockets.delete(ws);
    });
    // An oversized or malformed frame is reported here, after ws has begun closing the socket with the
    // matching code (1009 too big, 1002 malformed). Without a listener the error would be thrown and take
    // the whole app down. Cutting the connection here too would lose that code: a browser still sending
    // the rest of a big frame then sees a reset and reports 1006, with no word of why; ws discards what
    // is still arriving and ends the connection itself once the close handshake is done.
    ws.on('error', (err) => {
      console.warn(`browser mode: closing a WebSocket: ${err.message}`);
      if (ws.readyState !== ws.CLOSING) ws.terminate();
    });
    ws.on('message', (data, isBinary) => {
      // Top-level guard of each request over the socket: a rejection here would end the process.
      (async () => {
        if (isBinary)
          return send({
            type: 'response',
            id: null,
            ok: false,
            error: { code: 'invalid-input', message: 'binary frames are not accepted' },
          });
        let json: unknown;
        try {
          json = JSON.parse(frameText(data));
        } catch {
          return send({ type: 'response', id: null, ok: false, error: { code: 'invalid-input', message: 'frame is not valid JSON' } });
        }
        const parsed = (await loadWsProtocol()).parseClientFrame(json);
        if (!parsed.ok) {
          const id = typeof (json as { id?: unknown })?.id === 'number' ? (json as { id: number }).id : null;
          return send({ type: 'response', id, ok: false, error: { code: 'invalid-input', message: `bad frame: ${parsed.problem}` } });
        }
        const frame = parsed.frame;
        if (!limiter.take()) {
          return send({
            type: 'response',
            id: frame.id,
            ok: false,
            error: { code: 'rate-limited', message: 'too many requests: slow down and try again' },
          });
        }
        const result = await opts.dispatch(frame.name, frame.input, { transport: 'websocket' });
        send(
          result.ok
            ? { type: 'response', id: frame.id, ok: true, result: opts.wholeCells ? result.result : resultForPage(result.result) }
            : { type: 'response', id: frame.id, ok: false, error: result.error },
        );
      })().catch((err: unknown) => {
        console.warn(`browser mode: a WebSocket request failed: ${(err as Error)?.message ?? String(err)}`);
      });
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  origin = `http://${shownHost}:${port}`;
  cookieName = tokenCookieName(port);
  allowedHosts = new Set([`${shownHost}:${port}`, ...(isLoopback(host) ? [`localhost:${port}`, `127.0.0.1:${port}`] : [])]);

  return {
    url: origin,
    launchUrl: `${origin}/?token=${token}`,
    token,
    cookieName,
    async close() {
      for (const ws of sockets) ws.terminate();
      wss.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/**
 * The request target as a URL of our origin, or null when it is not a path (`*`, absolute-form, junk).
 * The target is appended to our origin rather than resolved against it, so `//[` or `//evil/ws` stays
 * a path of ours (and fails routing) instead of being read as another host or throwing.
 */
function requestUrl(target: string | undefined, origin: string): URL | null {
  if (!target?.startsWith('/')) return null;
  try {
    return new URL(origin + target);
  } catch {
    return null;
  }
}

function rejectUpgrade(socket: Duplex, status: number, why: string): void {
  if (socket.writable) socket.end(`HTTP/1.1 ${status} ${why}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${why}\n`);
  else socket.destroy();
}

function refuse(res: ServerResponse, status: number, message: string): void {
  // Refusals may echo a path from the request: plain text, never sniffed into anything else.
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(message + '\n');
}

export function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === '::1' || host === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
