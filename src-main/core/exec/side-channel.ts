import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { type RunnerMessage, RunnerMessage as RunnerMessageSchema } from './runner-protocol';

// The structured half of a runner session: newline-delimited JSON over a Unix socket (a named pipe
// on Windows). The socket lives in the session's private 0700 folder so only this user can reach
// it, and only the first connection is accepted: that is the runner we started.

/** An image can be a few MB of base64; a line longer than this is dropped rather than buffered. */
const MAX_LINE = 128 * 1024 * 1024;

export interface SideChannelEvents {
  onMessage(message: RunnerMessage): void;
  /** A line that was not a valid message: reported, never fatal. */
  onInvalid(problem: string): void;
  onClose(): void;
}

export class SideChannel {
  private socket: Socket | null = null;
  private buffered: Buffer[] = [];
  private bufferedLength = 0;
  private dropping = false;
  private closed = false;

  private constructor(
    private readonly server: Server,
    readonly path: string,
    private readonly events: SideChannelEvents,
  ) {
    server.on('connection', (socket) => this.accept(socket));
  }

  static async listen(dir: string, events: SideChannelEvents): Promise<SideChannel> {
    const path =
      process.platform === 'win32' ? `\\\\.\\pipe\\oi-${randomBytes(12).toString('hex')}` : join(dir, 'channel.sock');
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

  get connected(): boolean {
    return this.socket !== null && !this.closed;
  }

  send(message: object): boolean {
    if (!this.socket || this.closed) return false;
    this.socket.write(`${JSON.stringify(message)}\n`);
    return true;
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
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (!this.closed) {
        this.closed = true;
        this.events.onClose();
      }
    });
  }

  private onData(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.dropping) {
        this.dropping = false;
        this.events.onInvalid('a message longer than the limit was dropped');
        continue;
      }
      const line = this.bufferedLength > 0 ? Buffer.concat([...this.buffered, piece]) : piece;
      this.buffered = [];
      this.bufferedLength = 0;
      this.parse(line.toString('utf8'));
    }
    if (start < chunk.length && !this.dropping) {
      const rest = chunk.subarray(start);
      this.buffered.push(rest);
      this.bufferedLength += rest.length;
      if (this.bufferedLength > MAX_LINE) {
        this.buffered = [];
        this.bufferedLength = 0;
        this.dropping = true;
      }
    }
  }

  private parse(line: string): void {
    if (!line.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      this.events.onInvalid(`not JSON: ${line.slice(0, 120)}`);
      return;
    }
    const parsed = RunnerMessageSchema.safeParse(json);
    if (!parsed.success) {
      this.events.onInvalid(`unexpected message: ${line.slice(0, 120)}`);
      return;
    }
    this.events.onMessage(parsed.data);
  }
}
