import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { describeIssues } from '@contract';
import type { Dispatcher } from '../core/bridge/dispatch';
import type { EventBus } from '../core/bridge/event-bus';
import { policyForPath } from '../core/security/content-security-policy';
import type { WorkspaceLookup } from '../core/workspace/workspace-lookup';
import { FILES_PREFIX, serveWorkspaceFile } from './file-download';
import { RateLimiter } from './rate-limiter';
import { readRendererFile } from './static-files';
import { cookieValue, newLaunchToken, TOKEN_COOKIE, tokenMatches } from './token';
import { ClientFrame, type ServerFrame } from './ws-protocol';

export interface BrowserServerOptions {
  dispatch: Dispatcher;
  events: EventBus;
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
}

export interface BrowserServer {
  url: string;
  /** The URL to open: carries the per-launch token. */
  launchUrl: string;
  token: string;
  close(): Promise<void>;
}

// Large enough for an attachment upload; anything bigger is refused by the ws library (close 1009).
const DEFAULT_MAX_FRAME = 32 * 1024 * 1024;
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
  let allowedHosts = new Set<string>();

  const authorized = (req: IncomingMessage, url: URL): boolean =>
    tokenMatches(token, url.searchParams.get('token')) || tokenMatches(token, cookieValue(req.headers.cookie, TOKEN_COOKIE));

  const server = createServer((req, res) => {
    void handleHttp(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`internal error: ${(err as Error).message}`);
    });
  });

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin);
    if (!allowedHosts.has(req.headers.host ?? '')) return refuse(res, 421, 'unexpected Host header');
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'method not allowed');
    if (!authorized(req, url)) return refuse(res, 401, 'missing or wrong token: open the URL printed at launch');
    if (opts.workspaceOf && (req.url ?? '').startsWith(FILES_PREFIX)) {
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
      headers['set-cookie'] = `${TOKEN_COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`;
    }
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : file.body);
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: opts.maxFrameBytes ?? DEFAULT_MAX_FRAME });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', origin);
    const reject = (status: number, why: string) => {
      socket.end(`HTTP/1.1 ${status} ${why}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${why}\n`);
    };
    if (url.pathname !== '/ws') return reject(404, 'Not Found');
    if (!allowedHosts.has(req.headers.host ?? '')) return reject(421, 'Misdirected Request');
    // Browsers always send Origin; a page on another site must not drive our app (CSWSH). The output
    // frame and anything else in an opaque origin sends "null", which is not ours either.
    const reqOrigin = req.headers.origin;
    if (reqOrigin !== undefined && !allowedOrigins().has(reqOrigin)) return reject(403, 'Forbidden origin');
    if (!authorized(req, url)) return reject(401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws));
  });

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
    const unsubscribe = opts.events.subscribe((ev) => send({ type: 'event', name: ev.name, payload: ev.payload }));
    ws.on('close', () => {
      unsubscribe();
      sockets.delete(ws);
    });
    // An oversized or malformed frame is reported here; ws then closes the socket (1009/1002). Without a
    // listener the error would be thrown and take the whole app down.
    ws.on('error', (err) => {
      console.warn(`browser mode: closing a WebSocket: ${err.message}`);
      ws.terminate();
    });
    ws.on('message', (data, isBinary) => {
      void (async () => {
        if (isBinary) return send({ type: 'response', id: null, ok: false, error: { code: 'invalid-input', message: 'binary frames are not accepted' } });
        let json: unknown;
        try {
          json = JSON.parse(data.toString());
        } catch {
          return send({ type: 'response', id: null, ok: false, error: { code: 'invalid-input', message: 'frame is not valid JSON' } });
        }
        const frame = ClientFrame.safeParse(json);
        if (!frame.success) {
          const id = typeof (json as { id?: unknown })?.id === 'number' ? (json as { id: number }).id : null;
          return send({ type: 'response', id, ok: false, error: { code: 'invalid-input', message: `bad frame: ${describeIssues(frame.error.issues)}` } });
        }
        if (!limiter.take()) {
          return send({ type: 'response', id: frame.data.id, ok: false, error: { code: 'rate-limited', message: 'too many requests: slow down and try again' } });
        }
        const result = await opts.dispatch(frame.data.name, frame.data.input, { transport: 'websocket' });
        send(result.ok ? { type: 'response', id: frame.data.id, ok: true, result: result.result } : { type: 'response', id: frame.data.id, ok: false, error: result.error });
      })();
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  origin = `http://${shownHost}:${port}`;
  allowedHosts = new Set([`${shownHost}:${port}`, ...(isLoopback(host) ? [`localhost:${port}`, `127.0.0.1:${port}`] : [])]);

  return {
    url: origin,
    launchUrl: `${origin}/?token=${token}`,
    token,
    async close() {
      for (const ws of sockets) ws.terminate();
      wss.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

function refuse(res: ServerResponse, status: number, message: string): void {
  // Refusals may echo a path from the request: plain text, never sniffed into anything else.
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(message + '\n');
}

export function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === '::1' || host === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
