import { connect } from 'node:net';

/**
 * Sends bytes over a plain TCP socket, exactly as given (no client library tidies the request line or
 * headers), and returns whatever came back before the server closed or `idleMs` passed without data.
 * `resetAfterSend` destroys the socket right after writing, as a client that hangs up mid-answer.
 */
export function rawRequest(
  port: number,
  bytes: string | Buffer,
  opts: { resetAfterSend?: boolean; idleMs?: number } = {},
): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    const done = () => {
      socket.destroy();
      resolve(reply);
    };
    // An idle timer (not a timed assertion): a server that keeps a half-sent request open answers nothing.
    socket.setTimeout(opts.idleMs ?? 3000, done);
    socket.on('data', (c: Buffer) => (reply += c.toString('latin1')));
    socket.on('error', done);
    socket.on('close', done);
    socket.on('connect', () => {
      socket.write(bytes);
      if (opts.resetAfterSend) socket.resetAndDestroy();
    });
  });
}

/** The status code of a raw HTTP reply, or 0 when there was none. */
export function statusOf(reply: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1] ?? 0);
}

export const WS_HEADERS =
  'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n';
