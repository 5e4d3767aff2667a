import { readSync } from 'node:fs';

/**
 * Reads a non-blocking descriptor here and now, past the event loop, handing each read to `take`,
 * until a read finds nothing (EAGAIN: true, all read). false after `maxReads` reads (a program still
 * writing), at end of stream, or on any other error (the descriptor closing, which its owner's event
 * loop reports too). Used where a run's end needs what was written so far without a round trip
 * (the runner's side channel, the session's terminal).
 */
export function drainFd(fd: number, buffer: Buffer, maxReads: number, take: (bytes: Buffer) => void): boolean {
  for (let reads = 0; reads < maxReads; reads++) {
    let n: number;
    // The last read of every drain fails with EAGAIN, and an error's stack trace was most of what a
    // drain cost: none is taken for these.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      n = readSync(fd, buffer, 0, buffer.length, null);
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'EAGAIN';
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    if (n === 0) return false;
    take(buffer.subarray(0, n));
  }
  return false;
}
