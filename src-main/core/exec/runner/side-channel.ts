import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { drainFd } from '../process/drain-fd';
import { NdjsonReader } from './ndjson-reader';
import type { RunnerChannel, RunnerChannelEvents } from './runner-channel';

// The structured half of a runner session: newline-delimited JSON over a Unix socket (a named pipe
// on Windows). The socket lives in the session's private 0700 folder so only this user can reach
// it, and only the first connection is accepted: that is the runner we started.

export type SideChannelEvents = RunnerChannelEvents;

export class SideChannel implements RunnerChannel {
  private socket: Socket | null = null;
  private readonly reader: NdjsonReader;
  private closed = false;
  private drainBuffer: Buffer | null = null;

  private constructor(
    private readonly server: Server,
    readonly path: string,
    private readonly events: SideChannelEvents,
  ) {
    this.reader = new NdjsonReader(events);
    server.on('connection', (socket) => this.accept(socket));
  }

  static async listen(dir: string, events: SideChannelEvents): Promise<SideChannel> {
    const path = process.platform === 'win32' ? `\\\\.\\pipe\\oi-${randomBytes(12).toString('hex')}` : join(dir, 'channel.sock');
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return new SideChannel(server, path, events);
  }

  /** What the runner needs in its environment to connect. */
  get env(): Record<string, string> {
    return { OI_CHANNEL: this.path };
  }

  get connected(): boolean {
    return this.socket !== null && !this.closed;
  }

  send(message: object): boolean {
    if (!this.socket || this.closed) return false;
    this.socket.write(`${JSON.stringify(message)}\n`);
    return true;
  }

  /**
   * Reads the socket here and now, past the event loop, until nothing is left: a message the runner
   * sent before it blocked in its next read is already in the socket (a Unix socket's send queues
   * it at the reader before returning), so this stands in for a `sync` round trip at a run's end.
   * Through the socket's descriptor (Node's socket has no synchronous read; its `_handle.fd`, -1 on
   * Windows pipes): false, and main asks with `sync`, where there is none or when the stream still
   * holds data of its own it has not handed on (what is read here would overtake it).
   */
  drain(): boolean {
    const socket = this.socket;
    const fd = (socket as unknown as { _handle?: { fd?: unknown } } | null)?._handle?.fd;
    if (!socket || this.closed || typeof fd !== 'number' || fd < 0 || socket.readableLength > 0) return false;
    const buffer = (this.drainBuffer ??= Buffer.allocUnsafe(64 * 1024));
    // Bounded: a thread the cell left running could keep sending; past this, `sync` takes over. End of
    // stream: the runner is gone, and its exit ends the run.
    return drainFd(fd, buffer, 64, (bytes) => this.reader.push(Buffer.from(bytes)));
  }

  close(): void {
    this.closed = true;
    this.socket?.destroy();
    this.server.close();
  }

  private accept(socket: Socket): void {
    if (this.socket || this.closed) {
      socket.destroy();
      return;
    }
    this.socket = socket;
    // The runner is ours; once it is connected nobody else may be.
    this.server.close();
    socket.on('data', (chunk: Buffer) => this.reader.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (!this.closed) {
        this.closed = true;
        this.events.onClose();
      }
    });
  }
}
