import { lookup } from 'node:dns/promises';
import { createServer, isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { isLocalAddress, normalHost } from './network-hosts';
import { bodyLength, originHead, readRequestHead } from './proxy-request-head';
import { closingResponseHeads } from './proxy-response-head';
import { connectPumped } from './socket-pump';

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

  const server = createServer((client) => void serve(client, decide, open));
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

/**
 * One connection from the sandbox: its request head is read and the destination decided before any
 * byte goes anywhere; then the two sockets are joined and bytes flow both ways as they are. For HTTPS
 * and anything else that is `CONNECT host:port`; for plain HTTP an absolute-form request
 * (`GET http://host/path`), passed on in origin form with `Connection: close` and followed by its
 * body only, so that the joined connection carries that one exchange; the connection then ends and the
 * client's next request, on a new connection, is decided again (a request sent on it in the meantime
 * goes nowhere, and the client, seeing the end, sends it again).
 */
async function serve(client: Socket, decide: Decide, open: Set<Duplex>): Promise<void> {
  track(client, open);
  client.on('error', () => client.destroy());
  const read = await readRequestHead(client);
  if (!read) return;
  if (!read.ok) return refuse(client, 400, read.reason);
  const { head, rest } = read;
  if (head.method === 'CONNECT') {
    const target = parseAuthority(head.target);
    if (!target) return refuse(client, 400, `not a host:port: ${head.target}`);
    const decision = await decide(target.host, target.port);
    if (!decision.ok) return refuse(client, decision.status, decision.reason);
    return join(client, target, decision.address, { tunnel: true, rest }, open);
  }
  let url: URL;
  try {
    url = new URL(head.target);
  } catch {
    return refuse(client, 400, 'this is a proxy: requests name a full http:// URL');
  }
  if (url.protocol !== 'http:') return refuse(client, 400, `${url.protocol} requests go through CONNECT`);
  const body = bodyLength(head);
  if (body === null) return refuse(client, 400, 'the request gives more than one Content-Length');
  const target = { host: normalHost(url.hostname), port: url.port ? Number(url.port) : 80 };
  const decision = await decide(target.host, target.port);
  if (!decision.ok) return refuse(client, decision.status, decision.reason);
  return join(client, target, decision.address, { tunnel: false, head: originHead(head, url), rest, body }, open);
}

/**
 * What goes first once the server is reached: for a tunnel, the 200 to the client and then whatever
 * the client sends; for a plain request, its head in origin form and its body (`body` bytes, or all
 * of a chunked one), with the answer's head rewritten to say the connection ends with it.
 */
type Exchange = { tunnel: true; rest: Buffer } | { tunnel: false; head: string; rest: Buffer; body: number | 'all' };

/** Connects to the decided address and joins the two sockets. */
function join(client: Socket, target: { host: string; port: number }, address: string, exchange: Exchange, open: Set<Duplex>): void {
  if (client.destroyed) return; // it went away while the person was being asked
  const upstream = connectPumped({ host: address, port: target.port }, client, exchange.tunnel ? undefined : closingResponseHeads());
  track(upstream, open);
  upstream.once('connect', () => {
    if (exchange.tunnel) client.write('HTTP/1.1 200 Connection established\r\n\r\n');
    else upstream.write(exchange.head, 'latin1');
    if (exchange.tunnel || exchange.body === 'all') {
      if (exchange.rest.length > 0) upstream.write(exchange.rest);
      client.pipe(upstream);
    } else {
      sendBody(client, upstream, exchange.rest, exchange.body);
    }
  });
  upstream.on('error', (err) => {
    if (upstream.connecting) refuse(client, 502, `could not reach ${target.host}:${target.port}: ${err.message}`);
    else client.destroy();
  });
  upstream.on('close', () => {
    // The server is gone: what it sent is queued for the client, which gets it and then the end.
    if (!client.writableEnded) client.destroy();
  });
  client.on('close', () => upstream.destroy());
}

/** The request's `length` bytes of body, from `rest` (what came after its head) and the client; then the client is no longer read. */
function sendBody(client: Socket, upstream: Socket, rest: Buffer, length: number): void {
  let left = length;
  const more = (chunk: Buffer) => {
    const part = chunk.subarray(0, left);
    left -= part.length;
    if (left === 0) {
      client.off('data', more);
      // What the client sends after its request (a next one, pipelined) is dropped: the connection
      // ends with this answer, and a client that sees that asks again.
      client.on('data', () => undefined);
    }
    if (part.length > 0 && !upstream.write(part)) {
      client.pause();
      upstream.once('drain', () => client.resume());
    }
  };
  client.on('data', more);
  more(rest);
  client.resume();
}

type Decide = (host: string, port: number) => Promise<Decision>;

function refuse(client: Socket, status: number, reason: string): void {
  const line = statusLine(status, reason);
  const body = `${line}\n`;
  client.end(
    `HTTP/1.1 ${line}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  // Read and drop whatever the client still sends (a body), so that closing does not reset the
  // connection before the client has read the answer.
  client.resume();
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
