// Keeps Node's SIGINT watchdog running for the runner's whole life, so that a SIGINT can never end
// the session or stop the wrong cell, whenever it lands. oi-runner.mjs runs a cell's synchronous
// part with breakOnSigint, the only way to stop a busy loop from outside; without this guard, around
// every such script:
//
// - Node starts its watchdog (a helper thread, and its SIGINT handler for the whole process) when
//   the first breakOnSigint script begins, and stops it when the last one ends, putting back a
//   handler that ends the process; vm also takes every process.on('SIGINT') listener off for the
//   script's length, which leaves the default action (end the process) until the watchdog's
//   handler is in. A SIGINT in those instants killed the session: "state was lost".
// - A SIGINT that reaches the watchdog's handler as the script ends wakes the helper thread after
//   the script is gone; that wake-up stays counted and stops the NEXT breakOnSigint script the
//   moment it starts: the next cell failed with "Interrupted" although nobody had interrupted it.
//
// Here a worker thread sits in a breakOnSigint script of its own that never ends, so the watchdog
// is never stopped: a cell's script only joins it, and a SIGINT goes to the newest script (the
// cell's while one runs, else this one, which ignores it). The script waits in a write to a pipe
// that is full: a SIGINT cannot get it out (Node retries a write that a signal cut short, and
// stopping a script takes effect only once it runs JavaScript again), where a wait JavaScript can be
// woken from (Atomics.wait) let a storm of SIGINTs end it and open the gap again. At exit the pipe is
// read, so the write ends and Node can join the thread.

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import vm from 'node:vm';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

/** Starts the guard; resolves once its script is in (the watchdog is up). Not on Windows, which has no SIGINT to guard. */
export async function startSigintGuard() {
  if (process.platform === 'win32') return;
  const { reader, writer } = await fullPipe();
  const guard = new Worker(new URL(import.meta.url), { workerData: { oiSigintGuard: writer } });
  guard.unref();
  process.on('exit', () => {
    try {
      fs.readSync(reader, Buffer.alloc(4096)); // room in the pipe: the guard's write ends
    } catch {
      // nothing to read: the guard never wrote
    }
  });
  await new Promise((resolve, reject) => {
    guard.once('message', resolve);
    guard.once('error', reject);
  });
}

/** A pipe with its buffer full: a blocking write to `writer` waits until `reader` is read. */
async function fullPipe() {
  // Node makes no anonymous pipe; a FIFO, unlinked once open, is one.
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'oi-sigint-'));
  try {
    const fifo = path.join(dir, 'pipe');
    await promisify(execFile)('mkfifo', ['-m', '600', fifo]);
    // Read and write both, so neither open waits for the other end.
    const reader = fs.openSync(fifo, fs.constants.O_RDWR | fs.constants.O_NONBLOCK);
    const writer = fs.openSync(fifo, fs.constants.O_RDWR);
    const chunk = Buffer.alloc(4096);
    for (;;) {
      try {
        fs.writeSync(reader, chunk);
      } catch (error) {
        if (error?.code === 'EAGAIN') break;
        throw error;
      }
    }
    return { reader, writer };
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

// The worker: one write that waits until exit, inside a breakOnSigint script.
if (!isMainThread && workerData?.oiSigintGuard !== undefined) {
  const writer = workerData.oiSigintGuard;
  globalThis.oiHoldSigint = () => {
    parentPort.postMessage('ready');
    fs.writeSync(writer, 'x');
  };
  try {
    new vm.Script('oiHoldSigint()').runInThisContext({ breakOnSigint: true });
  } catch {
    // at exit, with a SIGINT's stop still pending
  }
}
