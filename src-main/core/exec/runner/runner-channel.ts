import type { MessageSink } from './ndjson-reader';

// The side channel a runner talks on (docs/exec-protocol.md), whatever carries the bytes: a Unix
// socket for runtimes that can open one (Python, Node, Ruby), two FIFOs for R, whose base library
// has no Unix sockets.

export type ChannelKind = 'socket' | 'fifo';

export interface RunnerChannelEvents extends MessageSink {
  /** The runner's end went away; its process normally exits right after. */
  onClose(): void;
}

export interface RunnerChannel {
  /** Variables the runner reads to find its end of the channel (OI_CHANNEL, or OI_CHANNEL_IN/OUT). */
  readonly env: Record<string, string>;
  /** The runner has reached its end of the channel. */
  readonly connected: boolean;
  /** false when the message could not be sent (nothing connected, or closed). */
  send(message: object): boolean;
  /**
   * Reads, without waiting, what the runner has already sent and the event loop has not yet read,
   * and hands it on before returning (queued behind a message being handled). false when this
   * channel cannot (then main asks the runner with `sync`).
   */
  drain?(): boolean;
  close(): void;
}
