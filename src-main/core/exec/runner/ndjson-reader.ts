import { type RunnerMessage, toRunnerMessage } from './runner-protocol';

// Splits a runner's byte stream into newline-delimited JSON messages and validates each one.
// Shared by every kind of side channel (socket, FIFOs): only how the bytes travel differs.

/** An image can be a few MB of base64; a line longer than this is dropped rather than buffered. */
const MAX_LINE = 128 * 1024 * 1024;

export interface MessageSink {
  onMessage(message: RunnerMessage): void;
  /** A line that was not a valid message: reported, never fatal. */
  onInvalid(problem: string): void;
}

export class NdjsonReader {
  private buffered: Buffer[] = [];
  private bufferedLength = 0;
  private dropping = false;
  /** Chunks pushed while a message of an earlier one is being handled (SideChannel.drain): they come after its rest. */
  private queued: Buffer[] | null = null;

  constructor(private readonly sink: MessageSink) {}

  push(chunk: Buffer): void {
    if (this.queued) {
      this.queued.push(chunk);
      return;
    }
    this.queued = [];
    try {
      this.consume(chunk);
      for (let next = this.queued.shift(); next; next = this.queued.shift()) this.consume(next);
    } finally {
      this.queued = null;
    }
  }

  private consume(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.dropping) {
        this.dropping = false;
        this.sink.onInvalid('a message longer than the limit was dropped');
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
      this.sink.onInvalid(`not JSON: ${line.slice(0, 120)}`);
      return;
    }
    const message = toRunnerMessage(json);
    if (!message) {
      this.sink.onInvalid(`unexpected message: ${line.slice(0, 120)}`);
      return;
    }
    this.sink.onMessage(message);
  }
}
