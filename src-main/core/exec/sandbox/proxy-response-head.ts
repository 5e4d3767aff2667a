// The server's answer to a plain-HTTP request through the sandbox's proxy (network-proxy.ts) carries
// one exchange only: the proxy asked the server for `Connection: close` and ends the client's
// connection after the answer. The client is told so too, in the answer's head, so that it never sends
// a next request on a connection that is about to end (Node's keep-alive agent would, when the server
// does not say `close` itself, and get "socket hang up").

/** Takes the server's bytes as they come (null: the end) and gives what the client is sent. */
export type HeadEditor = (chunk: Buffer | null) => { out: Buffer; done: boolean };

/** Heads larger than this are passed on untouched (the client then learns of the end by the end). */
const MAX_HEAD_BYTES = 64 * 1024;
const HOP = /^(connection|keep-alive|proxy-connection):/i;

/**
 * An editor for the start of the server's bytes: it holds them until a whole head is there, gives it
 * back, the final one (after any interim 1xx) with `Connection: close`, then `done` with the rest
 * as it came. What it gives back is its own copy: the pump's buffer is reused.
 */
export function closingResponseHeads(): HeadEditor {
  let held: Buffer = Buffer.alloc(0);
  return (chunk) => {
    // The server ended inside a head: what was held goes on as it came.
    if (chunk === null) return { out: held, done: true };
    held = Buffer.concat([held, chunk]);
    const out: Buffer[] = [];
    for (;;) {
      const end = held.indexOf('\r\n\r\n', 0, 'latin1');
      if (end < 0) {
        if (held.length <= MAX_HEAD_BYTES) return { out: Buffer.concat(out), done: false };
        return { out: Buffer.concat([...out, held]), done: true };
      }
      const lines = held.subarray(0, end).toString('latin1').split('\r\n');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1];
      if (!status) return { out: Buffer.concat([...out, held]), done: true };
      // 1xx answers (100 Continue) come before the final one and go on as they are (a client that
      // reads `close` in one takes what follows for an error); 101 would switch protocols, which a
      // request sent with `Connection: close` does not ask for.
      const interim = status.startsWith('1') && status !== '101';
      const kept = lines.filter((line, i) => i === 0 || interim || !HOP.test(line));
      out.push(Buffer.from(`${kept.join('\r\n')}\r\n${interim ? '' : 'Connection: close\r\n'}\r\n`, 'latin1'));
      held = held.subarray(end + 4);
      if (!interim) return { out: Buffer.concat([...out, held]), done: true };
    }
  };
}
