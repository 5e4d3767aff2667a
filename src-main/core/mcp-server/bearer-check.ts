import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

// Who may talk to `oi mcp --http`: the listener is on 127.0.0.1, but any local program (and any web
// page, through the browser) can reach a local port. So every request must carry the token as a
// bearer credential, and must name our own host (a page that rebinds its DNS name to 127.0.0.1 sends
// its own name as Host). A request from any other web page (an Origin that is not this server's own)
// is refused outright: no page has a reason. This server's own origin is let through (the MCP spec's
// DNS-rebinding rule, checked by the conformance suite): it serves no page, so no page can carry it.

export type Refusal = { status: 401 | 403; message: string } | null;

/** Compared as hashes so neither the length nor the first differing byte shows in the time taken. */
export function sameToken(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export function checkRequest(req: IncomingMessage, token: string, port: number): Refusal {
  const host = req.headers.host ?? '';
  const ours = [`127.0.0.1:${port}`, `localhost:${port}`];
  if (!ours.includes(host)) return { status: 403, message: `Host "${host}" is not this server` };
  const origin = req.headers.origin;
  if (origin !== undefined && !ours.some((h) => origin === `http://${h}`))
    return { status: 403, message: 'requests from web pages are refused' };
  const auth = req.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  if (!match?.[1]) return { status: 401, message: 'this server needs its token: send "Authorization: Bearer <token>"' };
  if (!sameToken(match[1], token)) return { status: 401, message: 'the bearer token is not this server’s token' };
  return null;
}
