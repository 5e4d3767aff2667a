import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect, createServer as createNetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox } from '../../../src-main/core/exec';

// The sandbox's proxy and relay as a byte pipe, outside bubblewrap (sandbox-network-proxy.test.ts runs
// them inside it): the real relay script in its own process, the real proxy on a Unix socket, real
// servers. Since the proxy reads request heads itself and joins the sockets once a host is allowed,
// and both read downloads into one reused buffer, these check that every byte arrives, in order, both
// ways, and that a joined connection reaches no other host than the one decided.

const RELAY = resolve(import.meta.dirname, '../../../resources/sandbox/net-relay.mjs');
const HOST = '127.0.0.2';
const MB = 1024 * 1024;

/** Bytes that no two positions a chunk apart share (period 251), so a lost, doubled or reordered chunk shows. */
function pattern(bytes: number): Buffer {
  const out = Buffer.allocUnsafe(bytes);
  for (let i = 0; i < bytes; i++) out[i] = (i * 7) % 251;
  return out;
}
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('the proxy and the relay pass bytes as they are, only to the host decided', () => {
  let dir: string;
  let proxy: Sandbox.NetworkProxy;
  let relay: ChildProcess;
  let relayPort: number;
  let allowed: Server;
  let other: Server;
  const asked: string[] = [];
  const big = pattern(24 * MB);
  const got: { path: string; headers: IncomingMessage['headers']; body: string }[] = [];
  let otherSaw = 0;

  const portOf = (server: Server | ReturnType<typeof createNetServer>) => {
    const address = server.address();
    return typeof address === 'object' && address ? address.port : 0;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'oi-proxy-stream-'));
    allowed = createServer((req, res) => {
      const hash = createHash('sha256');
      let length = 0;
      req.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        length += chunk.length;
      });
      req.on('end', () => {
        got.push({ path: req.url ?? '', headers: req.headers, body: `${length} ${hash.digest('hex')}` });
        if (req.url === '/big') res.end(big);
        else res.end(`uploaded ${length} ${got.at(-1)?.body.split(' ')[1]}\n`);
      });
    });
    other = createServer((_req, res) => {
      otherSaw++;
      res.end('other\n');
    });
    await new Promise<void>((r) => allowed.listen(0, HOST, r));
    await new Promise<void>((r) => other.listen(0, HOST, r));
    const otherPort = portOf(other);
    proxy = await Sandbox.startNetworkProxy(join(dir, 'net.sock'), (host, port) => {
      asked.push(`${host}:${port}`);
      return Promise.resolve(port === otherPort ? { allow: false, reason: 'not this one' } : { allow: true, mayBeLocal: true });
    });
    relay = spawn(process.execPath, [RELAY, '--serve', proxy.socket, '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [line] = (await once(relay.stdout!, 'data')) as [Buffer];
    relayPort = Number(/^ready (\d+)/.exec(line.toString())?.[1]);
  });

  afterAll(async () => {
    relay?.kill('SIGKILL');
    await proxy?.close();
    await new Promise((r) => allowed?.close(r));
    await new Promise((r) => other?.close(r));
    await rm(dir, { recursive: true, force: true });
  });

  /** Sends `request` to the relay and reads until the connection ends, taking one chunk per turn of the event loop. */
  async function exchange(request: Buffer | string): Promise<Buffer> {
    const socket = connect(relayPort, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      socket.pause();
      setImmediate(() => socket.resume());
    });
    // Written, not ended: a client that half-closes is cut short by the relay (as it always was).
    socket.write(request);
    await once(socket, 'close');
    return Buffer.concat(chunks);
  }
  const bodyOf = (reply: Buffer) => reply.subarray(reply.indexOf('\r\n\r\n') + 4);

  it('carries a 24 MB download byte for byte, plain HTTP and through CONNECT', async () => {
    const port = portOf(allowed);
    const plain = await exchange(`GET http://${HOST}:${port}/big HTTP/1.1\r\nHost: ${HOST}:${port}\r\n\r\n`);
    expect(plain.subarray(0, 15).toString()).toBe('HTTP/1.1 200 OK');
    expect(sha(bodyOf(plain))).toBe(sha(big));

    const tunnel = await exchange(`CONNECT ${HOST}:${port} HTTP/1.1\r\n\r\nGET /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    const reply = bodyOf(tunnel);
    expect(reply.subarray(0, 15).toString()).toBe('HTTP/1.1 200 OK');
    expect(sha(bodyOf(reply))).toBe(sha(big));
  });

  it('carries a 16 MB upload byte for byte, and the server gets origin form and Connection: close', async () => {
    const port = portOf(allowed);
    const upload = big.subarray(0, 16 * MB);
    const head = `POST http://${HOST}:${port}/up?x=1 HTTP/1.1\r\nHost: ${HOST}:${port}\r\nProxy-Connection: keep-alive\r\nContent-Length: ${upload.length}\r\n\r\n`;
    const reply = await exchange(Buffer.concat([Buffer.from(head), upload]));
    expect(bodyOf(reply).toString()).toBe(`uploaded ${upload.length} ${sha(upload)}\n`);
    const seen = got.find((g) => g.path === '/up?x=1');
    expect(seen?.headers.connection).toBe('close');
    expect(seen?.headers['proxy-connection']).toBeUndefined();
  });

  it('passes on one request per connection: a second one, pipelined to another host, reaches nobody', async () => {
    const port = portOf(allowed);
    const otherPort = portOf(other);
    const before = asked.length;
    const reply = await exchange(
      `GET http://${HOST}:${port}/first HTTP/1.1\r\nHost: ${HOST}:${port}\r\n\r\n` +
        `GET http://${HOST}:${otherPort}/second HTTP/1.1\r\nHost: ${HOST}:${otherPort}\r\n\r\n`,
    );
    expect(reply.toString()).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(asked.slice(before)).toEqual([`${HOST}:${port}`]);
    expect(otherSaw).toBe(0);
    // Nor did the decided host get the second request: the joined connection carried one exchange.
    expect(got.map((g) => g.path)).toContain('/first');
    expect(got.map((g) => g.path)).not.toContain('/second');
    // The other host is refused when asked for on a connection of its own.
    const refused = await exchange(`GET http://${HOST}:${otherPort}/ HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(refused.toString()).toMatch(/^HTTP\/1\.1 403 Refused by the sandbox: not this one\r\n/);
    expect(otherSaw).toBe(0);
  });

  it('tells a keep-alive client that the connection ends with the answer, after a 100 Continue too', async () => {
    // A server that would keep the connection and says so, its head arriving in two pieces.
    const keeper = createNetServer((socket) => {
      let seen = '';
      socket.on('data', (chunk: Buffer) => {
        seen += chunk.toString('latin1');
        if (!seen.includes('\r\n\r\n')) return;
        seen = '';
        socket.write('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nConnection: keep-alive\r\nKeep-Al');
        setImmediate(() => socket.write('ive: timeout=30\r\nContent-Length: 2\r\n\r\nok'));
      });
    });
    await new Promise<void>((r) => keeper.listen(0, HOST, r));
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ connection: string | undefined; body: string }>((done, fail) => {
        const req = httpRequest({ host: '127.0.0.1', port: relayPort, path: `http://${HOST}:${portOf(keeper)}/`, agent }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => done({ connection: res.headers.connection, body }));
        });
        req.on('error', fail);
        req.end();
      });
    try {
      // The second request on the same agent: told `close`, it takes a new connection, not a dying one.
      expect(await get()).toEqual({ connection: 'close', body: 'ok' });
      expect(await get()).toEqual({ connection: 'close', body: 'ok' });
    } finally {
      agent.destroy();
      await new Promise((r) => keeper.close(r));
    }
  });

  it('answers a malformed or relative request with a 400 that says why, asking nobody', async () => {
    const before = asked.length;
    const bareLf = await exchange(`GET http://${HOST}/ HTTP/1.1\nHost: x\n\n`);
    const relative = await exchange('GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n');
    const tooLarge = await exchange(`GET http://${HOST}/ HTTP/1.1\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`);
    expect(bareLf.toString()).toMatch(/^HTTP\/1\.1 400 Bad proxy request: not an HTTP\/1\.x request\r\n/);
    expect(relative.toString()).toMatch(/^HTTP\/1\.1 400 Bad proxy request: this is a proxy: requests name a full http:\/\/ URL\r\n/);
    expect(tooLarge.toString()).toMatch(/^HTTP\/1\.1 400 Bad proxy request: the request head is over 65536 bytes\r\n/);
    expect(asked.length).toBe(before);
  });
});

describe('the pump behind the proxy', () => {
  it('reads nothing more while the client has not taken the last read, and loses nothing', async () => {
    // Small enough to lie in the socket's buffers while nobody reads.
    const first = pattern(256 * 1024);
    const second = Buffer.from(pattern(256 * 1024 + 13).subarray(13));
    let sender!: Socket;
    const source = createNetServer((socket) => {
      sender = socket;
      socket.write(first);
    });
    await new Promise<void>((r) => source.listen(0, '127.0.0.1', r));
    // Copies: a write that went through frees the pump's buffer for the next read.
    const writes: Buffer[] = [];
    let heldChunk!: Buffer;
    let release!: () => void;
    const heldWrite = new Promise<void>((held) => {
      release = held;
    });
    let firstWrite!: () => void;
    const firstArrived = new Promise<void>((r) => (firstWrite = r));
    const target = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, done) {
        writes.push(Buffer.from(chunk));
        // The first write is held like a client that does not read; the rest go through.
        if (writes.length === 1) {
          heldChunk = chunk;
          firstWrite();
          void heldWrite.then(() => done());
        } else done();
      },
    });
    const address = source.address();
    const pumped = Sandbox.connectPumped({ host: '127.0.0.1', port: typeof address === 'object' && address ? address.port : 0 }, target);
    await firstArrived;
    const held = writes[0]!;
    // The source sends more while the first write is held: it lies readable in the pump's socket.
    sender.end(second);
    await once(sender, 'finish');
    for (let turn = 0; turn < 5; turn++) await new Promise((r) => setImmediate(r));
    expect(writes).toHaveLength(1);
    // What the held write points at was not overwritten by a read in the meantime.
    expect(heldChunk.equals(held)).toBe(true);
    release();
    await once(target, 'finish');
    expect(sha(Buffer.concat(writes))).toBe(sha(Buffer.concat([first, second])));
    pumped.destroy();
    await new Promise((r) => source.close(r));
  });
});
