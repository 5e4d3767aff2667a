import { writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NdjsonReader } from '../../../src-main/core/exec/runner/ndjson-reader';
import type { RunnerMessage } from '../../../src-main/core/exec/runner/runner-protocol';
import { SideChannel } from '../../../src-main/core/exec/runner/side-channel';

// At a Python run's end main reads the runner's socket itself (SideChannel.drain) instead of a
// `sync` round trip (session/run-end.ts). These tests write into a real Unix socket synchronously,
// so the event loop has had no turn to read it, and look at what drain() handed on before it returned.

const synced = (token: string): string => `${JSON.stringify({ type: 'synced', token })}\n`;
const tokens = (messages: RunnerMessage[]): string[] => messages.map((m) => (m.type === 'synced' ? m.token : m.type));

function fdOf(socket: Socket): number {
  return (socket as unknown as { _handle: { fd: number } })._handle.fd;
}

describe('SideChannel.drain', () => {
  let dir: string | null = null;
  let channel: SideChannel | null = null;
  let client: Socket | null = null;

  afterEach(async () => {
    client?.destroy();
    channel?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = null;
  });

  async function open(): Promise<{ messages: RunnerMessage[]; invalid: string[]; fd: number }> {
    dir = await mkdtemp(join(tmpdir(), 'oi-drain-'));
    const messages: RunnerMessage[] = [];
    const invalid: string[] = [];
    const opened = await SideChannel.listen(dir, {
      onMessage: (m) => messages.push(m),
      onInvalid: (problem) => invalid.push(problem),
      onClose: () => undefined,
    });
    channel = opened;
    const socket = connect(opened.path);
    client = socket;
    await vi.waitFor(() => expect(opened.connected).toBe(true), { timeout: 15_000, interval: 10 });
    return { messages, invalid, fd: fdOf(socket) };
  }

  it('hands on what was sent before it returns, without the event loop', async () => {
    const { messages, fd } = await open();
    writeSync(fd, synced('a') + synced('b'));
    // The event loop has not run since: nothing was read the usual way.
    expect(messages).toEqual([]);
    expect(channel?.drain()).toBe(true);
    expect(tokens(messages)).toEqual(['a', 'b']);
    // Later messages still come the usual way.
    writeSync(fd, synced('c'));
    await vi.waitFor(() => expect(tokens(messages)).toEqual(['a', 'b', 'c']), { timeout: 15_000, interval: 10 });
  });

  it('keeps a message split across reads whole', async () => {
    const { messages, invalid, fd } = await open();
    const line = synced('split');
    writeSync(fd, line.slice(0, 10));
    expect(channel?.drain()).toBe(true);
    expect(messages).toEqual([]);
    writeSync(fd, line.slice(10));
    expect(channel?.drain()).toBe(true);
    expect(tokens(messages)).toEqual(['split']);
    expect(invalid).toEqual([]);
  });

  it('says it could not when the runner has closed its end', async () => {
    const { fd } = await open();
    writeSync(fd, synced('last'));
    client?.end();
    await vi.waitFor(() => expect(channel?.drain()).toBe(false), { timeout: 15_000, interval: 10 });
  });
});

describe('NdjsonReader', () => {
  it('hands on a chunk pushed while a message is being handled after the rest of the chunk before it', () => {
    const order: string[] = [];
    const invalid: string[] = [];
    const reader: NdjsonReader = new NdjsonReader({
      onMessage: (m) => {
        const token = tokens([m])[0] ?? '';
        order.push(token);
        // What drain() does when a message in hand ends a run: more bytes, which continue the
        // partial line still waiting at the end of this chunk.
        if (token === 'a') reader.push(Buffer.from(`${synced('c').slice(10)}${synced('d')}`));
      },
      onInvalid: (problem) => invalid.push(problem),
    });
    reader.push(Buffer.from(synced('a') + synced('b') + synced('c').slice(0, 10)));
    expect(order).toEqual(['a', 'b', 'c', 'd']);
    expect(invalid).toEqual([]);
  });
});
