import type { Socket } from 'node:net';

// The head of a request to the sandbox's proxy (network-proxy.ts), read off the client's socket before
// anything is decided. The proxy reads the head itself rather than through node:http, so that once a
// destination is allowed the two sockets are joined as they are and the body is never parsed again.
// Strict on purpose: a head that is not plain HTTP/1.x (bare CR or LF, folded or malformed lines) is
// refused, so what the proxy decided on is what the server is sent.

export interface RequestHead {
  method: string;
  /** `host:port` for CONNECT, an absolute URL otherwise. */
  target: string;
  /** `1.0` or `1.1`. */
  version: string;
  headers: [name: string, value: string][];
}

export type HeadRead = { ok: true; head: RequestHead; rest: Buffer } | { ok: false; reason: string };

/** A head larger than this is refused (node:http's own limit is 16 KiB). */
export const MAX_HEAD_BYTES = 64 * 1024;

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const REQUEST_LINE = new RegExp(`^(${TOKEN}) (\\S+) HTTP/(1\\.[01])$`);
const HEADER_LINE = new RegExp(`^(${TOKEN}):[\\t ]*([^\\x00-\\x08\\x0a-\\x1f\\x7f]*?)[\\t ]*$`);

/**
 * Reads the request head; resolves with it and the bytes that came after it (the start of a body, or
 * of a TLS handshake), the socket paused; null when the client went away first.
 */
export function readRequestHead(client: Socket): Promise<HeadRead | null> {
  return new Promise((done) => {
    let held: Buffer = Buffer.alloc(0);
    const finish = (result: HeadRead | null): void => {
      client.off('data', onData);
      client.off('end', onGone);
      client.off('close', onGone);
      client.pause();
      done(result);
    };
    const onGone = (): void => finish(null);
    const onData = (chunk: Buffer): void => {
      const from = Math.max(0, held.length - 3);
      held = held.length > 0 ? Buffer.concat([held, chunk]) : chunk;
      const end = held.indexOf('\r\n\r\n', from, 'latin1');
      // A head ended by bare line feeds would never end here: refuse it as soon as it ends.
      const bare = held.indexOf('\n\n', from, 'latin1');
      if (bare >= 0 && (end < 0 || bare < end)) return finish({ ok: false, reason: 'not an HTTP/1.x request' });
      if (end < 0 || end > MAX_HEAD_BYTES) {
        if (held.length > MAX_HEAD_BYTES) finish({ ok: false, reason: `the request head is over ${MAX_HEAD_BYTES} bytes` });
        return;
      }
      const head = parseRequestHead(held.subarray(0, end).toString('latin1'));
      finish(head ? { ok: true, head, rest: held.subarray(end + 4) } : { ok: false, reason: 'not an HTTP/1.x request' });
    };
    client.on('data', onData);
    client.once('end', onGone);
    client.once('close', onGone);
  });
}

export function parseRequestHead(text: string): RequestHead | null {
  const lines = text.split('\r\n');
  const first = REQUEST_LINE.exec(lines[0] ?? '');
  if (!first?.[1] || !first[2] || !first[3]) return null;
  const headers: [string, string][] = [];
  for (const line of lines.slice(1)) {
    const header = HEADER_LINE.exec(line);
    if (!header?.[1] || header[2] === undefined) return null;
    headers.push([header[1], header[2]]);
  }
  return { method: first[1], target: first[2], version: first[3], headers };
}

/** Headers for one hop only (RFC 9110 §7.6.1), plus any the client's Connection header names. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'upgrade'];

/**
 * The head the server is sent for a plain-HTTP request: origin form, hop-by-hop headers dropped, and
 * `Connection: close`, so the server ends the connection after its answer and the client asks again
 * (through the proxy, decided again) for anything more.
 */
export function originHead(head: RequestHead, url: URL): string {
  const named = head.headers
    .filter(([name]) => name.toLowerCase() === 'connection')
    .flatMap(([, value]) => value.split(',').map((token) => token.trim().toLowerCase()));
  const dropped = new Set([...HOP_BY_HOP, ...named]);
  const kept = head.headers.filter(([name]) => !dropped.has(name.toLowerCase()));
  if (!kept.some(([name]) => name.toLowerCase() === 'host')) kept.unshift(['Host', url.host]);
  const lines = kept.map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return `${head.method} ${url.pathname}${url.search} HTTP/${head.version}\r\n${lines}Connection: close\r\n\r\n`;
}

/**
 * How much of what follows a plain-HTTP request head is its body: `all` for a chunked body (passed on
 * as it comes), a byte count from Content-Length, 0 without either; null when the lengths disagree.
 */
export function bodyLength(head: RequestHead): number | 'all' | null {
  const values = (name: string) => head.headers.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v);
  if (values('transfer-encoding').length > 0) return 'all';
  const lengths = new Set(values('content-length').flatMap((v) => v.split(',').map((part) => part.trim())));
  if (lengths.size === 0) return 0;
  const [only] = [...lengths];
  return lengths.size === 1 && only !== undefined && /^\d{1,15}$/.test(only) ? Number(only) : null;
}
