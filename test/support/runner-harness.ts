import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as pty from 'node-pty';
import { endWithTest } from './test-children';

// Drives a runner the way the app does (docs/exec-protocol.md): a Unix socket for the side channel,
// the runner under a pty, and a run is over only when its fence (with its nonce) and its `done`
// have both arrived. Test-local on purpose: the runners are tested without the app's exec engine.

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const PYTHON_RUNNER = path.join(REPO, 'resources/runners/python/oi_runner.py');
export const NODE_RUNNER = path.join(REPO, 'resources/runners/node/oi-runner.mjs');

export type Output = {
  output_type: string;
  data?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  execution_count?: number | null;
  ename?: string;
  evalue?: string;
  traceback?: string[];
};

export interface RunOutcome {
  ok: boolean;
  cwd: string | null;
  outputs: Output[];
  /** The `seq` of each output message, in arrival order (undefined: sent without one). */
  seqs: Array<number | undefined>;
  /** The run's output position markers: their numbers, and where they were in `bytes`. */
  markers: Array<{ seq: number; at: number }>;
  /** Terminal bytes of the run, fence and this run's markers removed. */
  bytes: Buffer;
  /** The same as UTF-8 text with the pty's \r\n turned back into \n. */
  text: string;
  /** `text` without this run's stream switches (OiStream markers): what a person sees, in order. */
  plain: string;
  /** The parts of `text` written to stderr (between a stderr switch and the next switch). */
  stderr: string;
}

type Message = { type: string; [key: string]: unknown };

interface PendingRun {
  id: string;
  fence: Buffer;
  nonce: string;
  outputs: Output[];
  seqs: Array<number | undefined>;
  done: Message | null;
  terminal: Buffer | null;
  settle: (error?: Error) => void;
}

/** A growable byte buffer, so finding a fence in 10 MB of output stays linear. */
class Bytes {
  private data = Buffer.alloc(1 << 16);
  length = 0;
  append(chunk: Buffer): void {
    if (this.length + chunk.length > this.data.length) {
      const bigger = Buffer.alloc(Math.max(this.data.length * 2, this.length + chunk.length));
      this.data.copy(bigger, 0, 0, this.length);
      this.data = bigger;
    }
    chunk.copy(this.data, this.length);
    this.length += chunk.length;
  }
  indexOf(needle: Buffer, from: number): number {
    return this.data.subarray(0, this.length).indexOf(needle, from);
  }
  /** Removes and returns bytes [0, end), dropping `skip` more bytes after them. */
  take(end: number, skip: number): Buffer {
    const taken = Buffer.from(this.data.subarray(0, end));
    this.data.copy(this.data, 0, end + skip, this.length);
    this.length -= end + skip;
    return taken;
  }
  toString(): string {
    return this.data.subarray(0, this.length).toString('utf8');
  }
}

export interface StartOptions {
  command: string;
  args: string[];
  /** Defaults to a fresh temporary folder, removed by close(). */
  workspace?: string;
  env?: Record<string, string>;
}

export class Runner {
  readonly workspace: string;
  hello!: Message;
  /** Messages that belong to no running run (an output a finished cell's thread sent). */
  readonly stray: Message[] = [];
  private readonly terminal = new Bytes();
  private scanned = 0;
  private run_: PendingRun | null = null;
  private socket: net.Socket | null = null;
  private exitInfo: { exitCode: number; signal?: number } | null = null;
  private readonly exited: Promise<void>;

  private constructor(
    private readonly term: pty.IPty,
    private readonly server: net.Server,
    private readonly channelDir: string,
    workspace: string,
    private readonly ownsWorkspace: boolean,
  ) {
    this.workspace = workspace;
    this.exited = new Promise((resolve) => {
      term.onExit((info) => {
        this.exitInfo = info;
        this.run_?.settle(new Error(`runner exited (${JSON.stringify(info)}):\n${this.terminal.toString()}`));
        resolve();
      });
    });
    term.onData((data) => {
      this.terminal.append(data as unknown as Buffer);
      this.checkFence();
    });
  }

  static async start(options: StartOptions): Promise<Runner> {
    const channelDir = mkdtempSync(path.join(os.tmpdir(), 'oi-chan-'));
    const socketPath = path.join(channelDir, 'channel.sock');
    const workspace = options.workspace ?? mkdtempSync(path.join(os.tmpdir(), 'oi-ws-'));
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    const connected = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
    const term = pty.spawn(options.command, options.args, {
      name: 'xterm-256color',
      cols: 200,
      rows: 50,
      cwd: workspace,
      env: { ...process.env, ...options.env, OI_CHANNEL: socketPath, OI_WORKSPACE: workspace },
      encoding: null,
    });
    endWithTest(term, { group: true, exited: (listener) => term.onExit(listener) });
    const runner = new Runner(term, server, channelDir, workspace, options.workspace === undefined);
    const socket = await Promise.race([
      connected,
      runner.exited.then(() => {
        throw new Error(`runner exited before connecting:\n${runner.terminal.toString()}`);
      }),
    ]);
    runner.hello = await runner.attach(socket);
    return runner;
  }

  get pid(): number {
    return this.term.pid;
  }

  get exit(): { exitCode: number; signal?: number } | null {
    return this.exitInfo;
  }

  /** Everything the terminal showed that no run has claimed yet. */
  get unclaimedText(): string {
    return this.terminal.toString();
  }

  private attach(socket: net.Socket): Promise<Message> {
    this.socket = socket;
    let partial = '';
    return new Promise((resolve, reject) => {
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        partial += chunk;
        let newline: number;
        while ((newline = partial.indexOf('\n')) >= 0) {
          const message = JSON.parse(partial.slice(0, newline)) as Message;
          partial = partial.slice(newline + 1);
          if (message.type === 'hello') resolve(message);
          else this.onMessage(message);
        }
      });
      socket.on('error', reject);
    });
  }

  private onMessage(message: Message): void {
    const run = this.run_;
    if (!run || message.id !== run.id) {
      this.stray.push(message);
      return;
    }
    if (message.type === 'output') {
      run.outputs.push(message.output as Output);
      run.seqs.push(message.seq as number | undefined);
    }
    if (message.type === 'done') {
      run.done = message;
      if (run.terminal) run.settle();
    }
  }

  private checkFence(): void {
    const run = this.run_;
    if (!run || run.terminal) return;
    const at = this.terminal.indexOf(run.fence, Math.max(0, this.scanned - run.fence.length));
    if (at < 0) {
      this.scanned = this.terminal.length;
      return;
    }
    run.terminal = this.terminal.take(at, run.fence.length);
    this.scanned = 0;
    if (run.done) run.settle();
  }

  run(code: string, options: { executionCount?: number; timeoutMs?: number } = {}): Promise<RunOutcome> {
    if (this.run_) throw new Error('one run at a time');
    const id = `run-${randomBytes(4).toString('hex')}`;
    const nonce = randomBytes(8).toString('hex');
    return new Promise<RunOutcome>((resolve, reject) => {
      const timer = setTimeout(
        () => run.settle(new Error(`run timed out; terminal so far:\n${this.terminal.toString()}`)),
        options.timeoutMs ?? 30_000,
      );
      const run: PendingRun = {
        id,
        fence: Buffer.from(`\x1b]633;P;OiFence=${nonce}\x07`),
        nonce,
        outputs: [],
        seqs: [],
        done: null,
        terminal: null,
        settle: (error) => {
          clearTimeout(timer);
          this.run_ = null;
          if (error) return reject(error);
          const { bytes, markers } = takeMarkers(run.terminal!, run.nonce);
          resolve({
            ok: run.done!.ok as boolean,
            cwd: run.done!.cwd as string | null,
            outputs: run.outputs,
            seqs: run.seqs,
            markers,
            bytes,
            text: bytes.toString('utf8').replace(/\r\n/g, '\n'),
            ...streamsOf(bytes.toString('utf8').replace(/\r\n/g, '\n'), run.nonce),
          });
        },
      };
      this.run_ = run;
      this.send({ type: 'run', id, code, nonce, executionCount: options.executionCount ?? 1 });
      this.checkFence(); // output that raced ahead cannot carry this nonce, but stay uniform
    });
  }

  send(message: Message): void {
    this.socket!.write(`${JSON.stringify(message)}\n`);
  }

  /** Types into the terminal, as a user would (programs reading stdin see it). */
  type(text: string): void {
    this.term.write(text);
  }

  /** As main interrupts (runner-session.ts): the run's `interrupt` message, then SIGINT. */
  interrupt(): void {
    if (this.run_) this.send({ type: 'interrupt', id: this.run_.id });
    process.kill(this.term.pid, 'SIGINT');
  }

  async close(): Promise<void> {
    if (!this.exitInfo) {
      this.send({ type: 'shutdown' });
      const killer = setTimeout(() => this.term.kill('SIGKILL'), 5_000);
      await this.exited;
      clearTimeout(killer);
    }
    this.socket?.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.channelDir, { recursive: true, force: true });
    if (this.ownsWorkspace) rmSync(this.workspace, { recursive: true, force: true });
  }
}

/** Removes the run's output position markers (docs/exec-protocol.md), noting where each was. */
function takeMarkers(terminal: Buffer, nonce: string): { bytes: Buffer; markers: Array<{ seq: number; at: number }> } {
  const prefix = Buffer.from(`\x1b]633;P;OiOutput=${nonce}:`);
  const parts: Buffer[] = [];
  const markers: Array<{ seq: number; at: number }> = [];
  let from = 0;
  let length = 0;
  for (let at = terminal.indexOf(prefix); at >= 0; at = terminal.indexOf(prefix, from)) {
    const end = terminal.indexOf(0x07, at);
    if (end < 0) break;
    parts.push(terminal.subarray(from, at));
    length += at - from;
    markers.push({ seq: Number(terminal.subarray(at + prefix.length, end).toString('latin1')), at: length });
    from = end + 1;
  }
  parts.push(terminal.subarray(from));
  return { bytes: Buffer.concat(parts), markers };
}

/** Resolves once `predicate` holds, checking every few milliseconds. */
export async function until(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Splits a run's text at its stream switches (`OSC 633 ; P ; OiStream=<nonce>:stdout|stderr BEL`). */
function streamsOf(text: string, nonce: string): { plain: string; stderr: string } {
  const parts = text.split(new RegExp(`\x1b\\]633;P;OiStream=${nonce}:(stdout|stderr)\x07`));
  let plain = parts[0] ?? '';
  let stderr = '';
  for (let i = 1; i < parts.length; i += 2) {
    const chunk = parts[i + 1] ?? '';
    plain += chunk;
    if (parts[i] === 'stderr') stderr += chunk;
  }
  return { plain, stderr };
}
