import { connect, type Socket } from 'node:net';
import type { Writable } from 'node:stream';
import type { HeadEditor } from './proxy-response-head';

// The download side of a proxied connection (network-proxy.ts): the upstream socket reads straight
// into one buffer of its own, reused for every read, and each read is handed to the client socket as
// is. A socket's ordinary 'data' path allocates a fresh 64 KiB buffer for every read; on this kind of
// machine (a VM) those fresh pages cost a page fault each, and that, not the copy, was most of the
// proxy's time (CPU profile and perf, docs/sandbox.md). The same pump, in plain JavaScript, is in the
// relay inside the sandbox (resources/sandbox/net-relay.mjs), which cannot import this file.

/** How much one read may take: a few socket buffers' worth, so a fast download needs few reads. */
export const PUMP_BYTES = 1024 * 1024;

/**
 * Connects to `where` and copies everything it sends into `target`, then ends `target`. The buffer is
 * only reused once `target` has taken the previous read: while a write waits (the client reads more
 * slowly), reading stops, which is also the back-pressure.
 */
export function connectPumped(
  where: { host: string; port: number } | { path: string },
  target: Writable,
  /** Rewrites the first bytes (a response head) until it says it is done; gives back its own copy. */
  edit?: HeadEditor,
): Socket {
  const buffer = Buffer.allocUnsafe(PUMP_BYTES);
  let editing = edit;
  let waiting = false;
  const taken = (): void => {
    if (waiting && target.writableLength === 0) {
      waiting = false;
      source.resume();
    }
  };
  const source = connect({
    ...where,
    onread: {
      buffer,
      callback: (bytes: number) => {
        if (editing) {
          const { out, done } = editing(buffer.subarray(0, bytes));
          if (done) editing = undefined;
          if (out.length > 0) target.write(out);
          return true;
        }
        target.write(buffer.subarray(0, bytes), taken);
        // A write the kernel did not take at once still points into the buffer: read no more until it has.
        waiting = target.writableLength > 0;
        return !waiting;
      },
    },
  });
  source.on('end', () => {
    if (editing) target.write(editing(null).out);
    target.end();
  });
  return source;
}
