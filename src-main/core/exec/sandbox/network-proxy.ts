import { lookup } from 'node:dns/promises';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { isLocalAddress, normalHost } from './network-hosts';

// The app's side of a sandboxed session's network: an HTTP proxy on a Unix socket in the session's
// private folder, reached from inside the sandbox through the relay (resources/sandbox/net-relay.mjs).
// The sandbox itself has no network (bubblewrap --unshare-net); this is its only way out, and every
// connection is decided here, host by host, before a byte is sent: CONNECT tunnels for HTTPS and
// absolute-form requests for plain HTTP, as every proxy-aware client (pip, npm, curl, requests,
// R, Ruby, Node with NODE_USE_ENV_PROXY) speaks them.
//
// The proxy connects to the address it resolved and checked itself, so a name cannot be allowed and
// then resolve to this machine (DNS rebinding); a refusal says why in the status line, which is what
// clients print ("Tunnel connection failed: 403 …").

export type NetworkVerdict =
  | {
      allow: true;
      /** The person listed this exact host in settings: it may be on this machine or its link. */
      mayBeLocal: boolean;
    }
  | { allow: false; reason: string };

/** Decides one destination; may wait for the person to answer. */
export type NetworkPolicy = (host: string, port: number) => Promise<NetworkVerdict>;

export interface NetworkProxy {
  readonly socket: string;
  close(): Promise<void>;
}

type Decision = { ok: true; address: string } | { ok: false; status: number; reason: string };

export async function startNetworkProxy(socket: string, policy: NetworkPolicy): Promise<NetworkProxy> {
  const open = new Set<Duplex>();

  async function decide(host: string, port: number): Promise<Decision> {
    const verdict = await policy(host, port).catch((err: unknown): NetworkVerdict => ({ allow: false, reason: String(err) }));
    if (!verdict.allow) {
      return { ok: false, status: 403, reason: verdict.reason };
    }
    const address = await resolve(host);
    if (!address) return { ok: false, status: 502, reason: `${host} could not be resolved` };
    if (isLocalAddress(address) && !verdict.mayBeLocal) {
      return { ok: false, status: 403, reason: `${host} is an address on this machine; list it in the sandbox settings to allow it` };
    }
    return { ok: true, address };
  }

  const server = createServer((req, res) => void forward(req, res, decide, open));
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => void tunnel(req, client, head, decide, open));
  server.on('clientError', (_err, client) => client.destroy());
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(socket, () => {
      server.off('error', fail);
      done();
    });
  });
  return {
    socket,
    close: () =>
      new Promise<void>((done) => {
        for (const stream of open) stream.destroy();
        server.close(() => done());
      }),
  };
}

/** HTTPS and anything else: `CONNECT host:port`, then bytes both ways. */
async function tunnel(req: IncomingMessage, client: Duplex, head: Buffer, decide: Decide, open: Set<Duplex>): Promise<void> {
  track(client, open);
  client.on('error', () => client.destroy());
  const target = parseAuthority(req.url ?? '');
  if (!target) return refuse(client, 400, `not a host:port: ${printable(req.url ?? '')}`);
  const decision = await decide(target.host, target.port);
  if (!decision.ok) return refuse(client, decision.status, decision.reason);
  const upstream = connect({ host: decision.address, port: target.port });
  track(upstream, open);
  upstream.once('connect', () => {
    client.write('HTTP/1.1 200 Connection established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on('error', (err) => {
    if (upstream.connecting) refuse(client, 502, `could not reach ${target.host}:${target.port}: ${err.message}`);
    else client.destroy();
  });
  client.on('close', () => upstream.destroy());
}

/** Plain HTTP in absolute form (`GET http://host/path`). */
async function forward(req: IncomingMessage, res: ServerResponse, decide: Decide, open: Set<Duplex>): Promise<void> {
  track(req.socket, open);
  let url: URL;
  try {
    url = new URL(req.url ?? '');
  } catch {
    return answer(res, 400, 'this is a proxy: requests name a full http:// URL');
  }
  if (url.protocol !== 'http:') return answer(res, 400, `${url.protocol} requests go through CONNECT`);
  const host = normalHost(url.hostname);
  const port = url.port ? Number(url.port) : 80;
  const decision = await decide(host, port);
  if (!decision.ok) return answer(res, decision.status, decision.reason);
  const headers = { ...req.headers };
  delete headers['proxy-authorization'];
  delete headers['proxy-connection'];
  const upstream = httpRequest({ host: decision.address, port, method: req.method, path: `${url.pathname}${url.search}`, headers });
  upstream.on('response', (reply) => {
    res.writeHead(reply.statusCode ?? 502, reply.statusMessage, reply.headers);
    reply.pipe(res);
  });
  upstream.on('error', (err) => {
    if (!res.headersSent) answer(res, 502, `could not reach ${host}:${port}: ${err.message}`);
    else res.destroy();
  });
  req.pipe(upstream);
}

type Decide = (host: string, port: number) => Promise<Decision>;

function refuse(client: Duplex, status: number, reason: string): void {
  const line = statusLine(status, reason);
  client.end(`HTTP/1.1 ${line}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${line}\n`);
}

function answer(res: ServerResponse, status: number, reason: string): void {
  const line = statusLine(status, reason);
  res.writeHead(status, line.slice(4), { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
  res.end(`${line}\n`);
}

/** The reason in the status line, where clients show it: `403 Refused by the sandbox: …`. */
function statusLine(status: number, reason: string): string {
  const lead = status === 403 ? 'Refused by the sandbox' : status === 502 ? 'Sandbox proxy could not connect' : 'Bad proxy request';
  return `${status} ${lead}: ${printable(reason)}`;
}

/** One line of printable ASCII: a status line cannot carry anything else. */
function printable(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 300);
}

function parseAuthority(authority: string): { host: string; port: number } | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]/\s]+):(\d{1,5})$/.exec(authority);
  if (!match?.[1] || !match[2]) return null;
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return null;
  return { host: normalHost(match[1]), port };
}

async function resolve(host: string): Promise<string | null> {
  if (isIP(host)) return host;
  try {
    const all = await lookup(host, { all: true });
    // Any local answer makes the name local: the client could be handed that one next time.
    return all.find((a) => isLocalAddress(a.address))?.address ?? all[0]?.address ?? null;
  } catch {
    return null;
  }
}

function track(stream: Duplex | Socket, open: Set<Duplex>): void {
  open.add(stream);
  stream.once('close', () => open.delete(stream));
}
