// The cell's stdout and stderr, written straight to the terminal with blocking writes instead of
// through Node's stream machinery.
//
// Why: an interrupt stops a cell's synchronous code with V8's TerminateExecution, which lands at
// any JavaScript instruction — also inside Node's own Writable code, between marking a write as
// under way and hearing that it finished. That stream then waits forever for a completion that
// will never come: every later write (the runner's fence, the next cell's console.log) is queued
// behind it, the run never reports its end, and main has to kill the session. A plain write(2)
// keeps no such state: an interrupt can at worst cut one chunk short. Node writes a terminal
// synchronously anyway (tty.WriteStream sets its descriptor blocking), so the order and the
// blocking on a full terminal (main's flow control) stay as they were.

import fs from 'node:fs';

const nap = new Int32Array(new SharedArrayBuffer(4));

/** Writes all of `chunk` to `fd`, waiting out a full terminal if the descriptor is non-blocking. */
export function writeAll(fd, chunk, encoding = 'utf8') {
  const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += fs.writeSync(fd, bytes, offset);
    } catch (error) {
      if (error?.code !== 'EAGAIN') throw error;
      Atomics.wait(nap, 0, 0, 1); // a millisecond, without spinning: main reads on
    }
  }
}

/**
 * Makes `stream.write` write to `fd` directly; returns the function doing so (the runner's own
 * writes use it, so they stay behind the cell's). Chunks Node's streams would refuse still go to
 * the stream's own write, for its usual error.
 */
export function writeDirectly(stream, fd) {
  const original = stream.write;
  const write = function write(chunk, encoding, callback) {
    if (typeof encoding === 'function') {
      callback = encoding;
      encoding = undefined;
    }
    const text = typeof chunk === 'string';
    if (!(text || chunk instanceof Uint8Array) || (text && encoding != null && !Buffer.isEncoding(encoding)))
      return original.call(stream, chunk, encoding, callback);
    let failure = null;
    try {
      writeAll(fd, chunk, text && encoding != null ? encoding : 'utf8');
    } catch (error) {
      failure = error; // the terminal is gone: the session ends with it
    }
    if (typeof callback === 'function') process.nextTick(callback, failure);
    return failure === null;
  };
  stream.write = write;
  return write;
}
