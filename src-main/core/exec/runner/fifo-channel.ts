import { runAppProgram } from '../../programs/app-programs';
import { constants, open as openCallback, unlink } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { NdjsonReader } from './ndjson-reader';
import type { RunnerChannel, RunnerChannelEvents } from './runner-channel';

// The side channel over two named pipes (FIFOs), for runtimes without Unix sockets (base R has
// none, and a loopback TCP port would be reachable by every local user and cut off inside a
// network-less sandbox). Both live in the session's private 0700 folder, so only this user can
// open them, and they are unlinked as soon as the runner has said hello: after that nothing else
// can open them, as a socket that stops listening after its first connection.
//
// Main opens both FIFOs read-write. Opening a FIFO read-only or write-only blocks until the other
// side opens it, which would hold one of libuv's few pool threads for as long as the runner takes
// to start (or forever if it never does); read-write returns at once on Linux and macOS. The cost:
// main never sees end-of-file when the runner goes away, so death is noticed by the runner's
// process exiting (which runner-session watches anyway), not by the channel closing.

const openFile = promisify(openCallback);

export class FifoChannel implements RunnerChannel {
  private readonly reader: NdjsonReader;
  private hello = false;
  private closed = false;

  private constructor(
    private readonly paths: { toRunner: string; fromRunner: string },
    private readonly input: Socket,
    private readonly output: Socket,
    private readonly events: RunnerChannelEvents,
  ) {
    this.reader = new NdjsonReader({
      onMessage: (message) => {
        if (!this.hello) {
          this.hello = true;
          this.unlinkPaths();
        }
        events.onMessage(message);
      },
      onInvalid: (problem) => events.onInvalid(problem),
    });
    input.on('data', (chunk: Buffer) => this.reader.push(chunk));
    input.on('error', () => undefined);
    output.on('error', () => undefined);
    input.on('close', () => this.lost());
  }

  static async open(dir: string, events: RunnerChannelEvents): Promise<FifoChannel> {
    if (process.platform === 'win32') throw new Error('named pipes (FIFOs) are not available on Windows');
    const paths = { toRunner: join(dir, 'to-runner.fifo'), fromRunner: join(dir, 'from-runner.fifo') };
    // Node has no mkfifo; the command is part of every Unix base system.
    const made = await runAppProgram('mkfifo', ['-m', '600', paths.toRunner, paths.fromRunner]);
    if (!made.ok) throw new Error(`could not make the runner's channel: ${made.stderr.trim()}`);
    const flags = constants.O_RDWR | constants.O_NONBLOCK;
    const inFd = await openFile(paths.fromRunner, flags);
    const outFd = await openFile(paths.toRunner, flags).catch((err: unknown) => {
      new Socket({ fd: inFd }).destroy(); // closes inFd
      throw err;
    });
    // As sockets, reads and writes go through libuv's event loop instead of blocking pool threads.
    const input = new Socket({ fd: inFd, readable: true, writable: false });
    const output = new Socket({ fd: outFd, readable: false, writable: true });
    return new FifoChannel(paths, input, output, events);
  }

  get env(): Record<string, string> {
    return { OI_CHANNEL_IN: this.paths.toRunner, OI_CHANNEL_OUT: this.paths.fromRunner };
  }

  get connected(): boolean {
    return this.hello && !this.closed;
  }

  send(message: object): boolean {
    if (this.closed) return false;
    // Written even before hello: the pipe keeps it until the runner reads.
    this.output.write(`${JSON.stringify(message)}\n`);
    return true;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.input.destroy();
    this.output.destroy();
    this.unlinkPaths();
  }

  private lost(): void {
    if (this.closed) return;
    this.closed = true;
    this.output.destroy();
    this.events.onClose();
  }

  private unlinkPaths(): void {
    for (const path of [this.paths.toRunner, this.paths.fromRunner]) unlink(path, () => undefined);
  }
}
