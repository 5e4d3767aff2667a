import { readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { connect as tcpConnect, type AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { frameText } from '../../src-main/server/frame-text';
import { startAppUnderTest, type AppUnderTest } from '../support/app-under-test';

interface HttpReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(url: string, headers: Record<string, string> = {}): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a WebSocket and reports how the server answered the upgrade. */
function connect(url: string, headers: Record<string, string> = {}): Promise<{ ws: WebSocket | null; status: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve({ ws, status: 101 }));
    ws.once('unexpected-response', (_req, res) => resolve({ ws: null, status: res.statusCode ?? 0 }));
    ws.once('error', () => resolve({ ws: null, status: -1 }));
  });
}

function call(ws: WebSocket, frame: unknown): Promise<{ ok: boolean; result?: unknown; error?: { code: string; message: string } }> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const msg = JSON.parse(frameText(data)) as { type: string; ok: boolean; result?: unknown; error?: { code: string; message: string } };
      if (msg.type !== 'response') return;
      ws.off('message', onMessage);
      resolve(msg);
    };
    ws.on('message', onMessage);
    ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  });
}

/** Whether a TCP connection to host:port is accepted ('refused' and other errors are what they say). */
function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = tcpConnect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED' ? 'refused' : (err.code ?? err.message)));
  });
}

/** The local addresses of listening TCP sockets on a port, from the kernel's own tables (Linux). */
function listeningAddresses(port: number): string[] {
  const found: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const lines = readFileSync(table, 'utf8').trim().split('\n').slice(1);
    for (const line of lines) {
      const [, local, , state] = line.trim().split(/\s+/);
      const [hexAddress, hexPort] = (local ?? '').split(':');
      if (state !== '0A' || Number.parseInt(hexPort ?? '', 16) !== port) continue;
      // IPv4 addresses are stored as one little-endian word: 0100007F is 127.0.0.1.
      found.push(
        hexAddress?.length === 8
          ? (hexAddress.match(/../g) ?? [])
              .reverse()
              .map((b) => Number.parseInt(b, 16))
              .join('.')
          : `ipv6:${hexAddress}`,
      );
    }
  }
  return found;
}

/** The other addresses this machine answers on: 127.0.0.2 (loopback, but not 127.0.0.1), ::1 and its network addresses. */
function otherLocalAddresses(): string[] {
  const own = Object.values(networkInterfaces())
    .flat()
    .flatMap((i) => (i && !i.internal ? [i.address] : []));
  return ['127.0.0.2', '::1', ...own];
}

describe('browser mode server', () => {
  let aut: AppUnderTest;
  let base: string;
  let wsUrl: string;
  beforeAll(async () => {
    aut = await startAppUnderTest();
    base = aut.server.url;
    wsUrl = base.replace('http', 'ws') + '/ws';
  });
  afterAll(async () => aut?.close());

  it('listens on 127.0.0.1 only: the socket is bound there and no other local address reaches it', async () => {
    expect(aut.server.launchUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{40,}$/);
    const port = Number(new URL(base).port);
    expect(listeningAddresses(port)).toEqual(['127.0.0.1']);
    expect(await tryConnect('127.0.0.1', port)).toBe('connected');
    for (const host of otherLocalAddresses()) expect(await tryConnect(host, port), host).not.toBe('connected');
  });

  it('(twin) a server bound to every address is reached through those other addresses and listed as 0.0.0.0', async () => {
    const open = createServer((_req, res) => res.end('open'));
    await new Promise<void>((resolve) => open.listen(0, '0.0.0.0', resolve));
    try {
      const { port } = open.address() as AddressInfo;
      expect(listeningAddresses(port)).toEqual(['0.0.0.0']);
      expect(await tryConnect('127.0.0.2', port)).toBe('connected');
    } finally {
      await new Promise((resolve) => open.close(resolve));
    }
  });

  it('refuses the page without the token or with a wrong one', async () => {
    expect((await get(base + '/')).status).toBe(401);
    expect((await get(base + '/?token=wrong')).status).toBe(401);
    expect((await get(`${base}/?token=${aut.server.token}x`)).status).toBe(401);
  });

  it('serves the page with the token, sets an HttpOnly cookie and a strict CSP', async () => {
    const reply = await get(aut.server.launchUrl);
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('<div id="root">');
    const cookie = String(reply.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const csp = String(reply.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    const cookieValue = cookie.split(';')[0] ?? '';
    expect((await get(base + '/index.html', { cookie: cookieValue })).status).toBe(200);
  });

  it('refuses a request for another Host (DNS rebinding)', async () => {
    expect((await get(aut.server.launchUrl, { host: 'evil.example:80' })).status).toBe(421);
  });

  it('refuses WebSockets without the token, with a wrong token, or from a foreign Origin', async () => {
    expect((await connect(wsUrl)).status).toBe(401);
    expect((await connect(wsUrl + '?token=nope')).status).toBe(401);
    const foreign = await connect(`${wsUrl}?token=${aut.server.token}`, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    const ours = await connect(`${wsUrl}?token=${aut.server.token}`, { origin: base });
    expect(ours.status).toBe(101);
    ours.ws?.close();
  });

  it('refuses a WebSocket upgrade for another Host (DNS rebinding), even with the token; twin: our Host connects', async () => {
    // A real upgrade through the ws client, not plain HTTP: the upgrade path has its own Host check.
    const port = new URL(base).port;
    const rebound = await connect(`${wsUrl}?token=${aut.server.token}`, { host: `evil.example:${port}` });
    expect(rebound.status).toBe(421);
    expect(rebound.ws).toBeNull();
    const ours = await connect(`${wsUrl}?token=${aut.server.token}`, { host: `127.0.0.1:${port}` });
    expect(ours.status).toBe(101);
    ours.ws?.close();
  });

  it('answers a valid request and refuses unknown names and bad input with clear errors, running nothing', async () => {
    const { ws } = await connect(`${wsUrl}?token=${aut.server.token}`);
    if (!ws) throw new Error('could not connect');
    try {
      const list = await call(ws, { type: 'request', id: 1, name: 'conversation.list', input: {} });
      expect(list.ok).toBe(true);
      expect(list.result).toEqual([]);

      const unknown = await call(ws, { type: 'request', id: 2, name: 'shell.exec', input: { cmd: 'id' } });
      expect(unknown.error?.code).toBe('unknown-request');
      expect(unknown.error?.message).toMatch(/unknown request "shell\.exec"/);

      const bad = await call(ws, { type: 'request', id: 3, name: 'chat.send', input: { conversationId: '../../etc', text: 42 } });
      expect(bad.error?.code).toBe('invalid-input');
      expect(bad.error?.message).toMatch(/conversationId/);
      expect(bad.error?.message).toMatch(/text/);

      const extra = await call(ws, { type: 'request', id: 4, name: 'settings.set', input: { autoRun: true, evil: 1 } });
      expect(extra.error?.code).toBe('invalid-input');
      expect(extra.error?.message).toMatch(/evil/);
      const settings = await call(ws, { type: 'request', id: 5, name: 'settings.get', input: {} });
      expect((settings.result as { autoRun: boolean }).autoRun).toBe(false);

      const notJson = await call(ws, '{nope');
      expect(notJson.error?.message).toMatch(/not valid JSON/);

      // Nothing reached the model and no conversation was created by any of the refused requests.
      expect(aut.llm.requests).toHaveLength(0);
      expect((await call(ws, { type: 'request', id: 6, name: 'conversation.list', input: {} })).result).toEqual([]);
    } finally {
      ws.close();
    }
  });
});

describe('browser mode server limits', () => {
  it('closes a socket that sends a frame over the size limit, and slows down a flood of requests', async () => {
    const { startBrowserServer } = await import('../../src-main/server/browser-server');
    const { createDispatcher } = await import('../../src-main/core/bridge/dispatch');
    const { EventBus } = await import('../../src-main/core/bridge/event-bus');
    const { RENDERER_DIR } = await import('../support/app-under-test');
    let calls = 0;
    const table = new Proxy({} as import('../../src-main/core/bridge/handler-table').HandlerTable, {
      get: () => async () => {
        calls++;
        return [];
      },
    });
    const server = await startBrowserServer({
      dispatch: createDispatcher(table),
      events: new EventBus(),
      rendererDir: RENDERER_DIR,
      maxFrameBytes: 1024,
      rate: { perSecond: 1, burst: 5 },
    });
    try {
      const url = `${server.url.replace('http', 'ws')}/ws?token=${server.token}`;
      const big = await connect(url);
      const closed = new Promise<number>((resolve) => big.ws?.once('close', (code) => resolve(code)));
      big.ws?.send('x'.repeat(4096));
      expect(await closed).toBe(1009);

      const { ws } = await connect(url);
      if (!ws) throw new Error('could not connect');
      const replies = [];
      for (let id = 1; id <= 8; id++) replies.push(await call(ws, { type: 'request', id, name: 'conversation.list', input: {} }));
      ws.close();
      expect(replies.filter((r) => r.ok)).toHaveLength(5);
      expect(replies.at(-1)?.error?.code).toBe('rate-limited');
      expect(calls).toBe(5);
    } finally {
      await server.close();
    }
  });
});
