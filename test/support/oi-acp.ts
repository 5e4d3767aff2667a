import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import {
  client,
  PROTOCOL_VERSION,
  ndJsonStream,
  type ClientConnection,
  type PermissionOptionKind,
  type RequestPermissionRequest,
  type SessionNotification,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import { afterAll, beforeAll, vi } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../fixtures/llm-server';
import { cliEnv, OI, tempDir } from './cli-process';
import { endWithTest } from './test-children';

// `oi acp` as an editor runs it: a real process (built when fresh, cli-process.ts) spoken to by the
// ACP SDK's own client side over its stdin and stdout, a real pipe.

/** What the test's "person" answers to a permission request: an option kind, "cancelled", or "never" (no answer at all). */
export type PermissionAnswer = PermissionOptionKind | 'cancelled' | 'never';

export interface OiAcp {
  connection: ClientConnection;
  pid: number;
  /** Every session/update so far, in order. */
  updates: SessionNotification[];
  /** Every permission request so far. */
  asked: RequestPermissionRequest[];
  /** How the next permission requests are answered (in order; the last one repeats). */
  answers: PermissionAnswer[];
  stderr: () => string;
  /**
   * Requests written to oi's stdin in one write, beside the SDK's connection (so that oi reads them
   * together, as a quick editor's may arrive), answered by id from oi's stdout.
   */
  together(requests: Array<{ id: string; method: string; params: unknown }>): Promise<Record<string, RawAnswer>>;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

export interface RawAnswer {
  result?: unknown;
  error?: { code: number; message: string };
}

export function startOiAcp(args: string[], env: Record<string, string>, cwd: string): OiAcp {
  mkdirSync(cwd, { recursive: true });
  const child = endWithTest(
    spawn(process.execPath, [...OI, 'acp', ...args], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: true }),
    {
      group: true,
    },
  );
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const answered = (id: string): RawAnswer | undefined =>
    out
      .split('\n')
      .filter((line) => line.includes(`"id":${JSON.stringify(id)}`))
      .map((line) => JSON.parse(line) as RawAnswer & { id?: unknown })
      .find((m) => m.id === id && ('result' in m || 'error' in m));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const updates: SessionNotification[] = [];
  const asked: RequestPermissionRequest[] = [];
  const answers: PermissionAnswer[] = [];
  const app = client({ name: 'oi-acp-test' })
    .onNotification('session/update', ({ params }) => void updates.push(params))
    .onRequest('session/request_permission', ({ params }) => {
      asked.push(params);
      const answer = (answers.length > 1 ? answers.shift() : answers[0]) ?? 'cancelled';
      if (answer === 'never') return new Promise<never>(() => undefined);
      if (answer === 'cancelled') return { outcome: { outcome: 'cancelled' } };
      const option = params.options.find((o) => o.kind === answer);
      if (!option) throw new Error(`no ${answer} option among ${JSON.stringify(params.options)}`);
      return { outcome: { outcome: 'selected', optionId: option.optionId } };
    });
  const connection = app.connect(
    ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>),
  );
  return {
    connection,
    pid: child.pid ?? -1,
    updates,
    asked,
    answers,
    stderr: () => err,
    async together(requests) {
      child.stdin.write(requests.map((r) => `${JSON.stringify({ jsonrpc: '2.0', ...r })}\n`).join(''));
      const answers: Record<string, RawAnswer> = {};
      for (const { id } of requests) {
        answers[id] = await vi.waitFor(
          () => {
            const answer = answered(id);
            if (!answer) throw new Error(`no answer to ${id} yet`);
            return answer;
          },
          { timeout: 60_000, interval: 20 },
        );
      }
      return answers;
    },
    exited,
    async stop() {
      connection.close();
      child.stdin.end();
      await exited;
    },
  };
}

/** The updates of one kind, typed. */
export function updatesOf<K extends SessionUpdate['sessionUpdate']>(
  acp: OiAcp,
  kind: K,
  sessionId?: string,
): Array<Extract<SessionUpdate, { sessionUpdate: K }>> {
  return acp.updates
    .filter((n) => sessionId === undefined || n.sessionId === sessionId)
    .map((n) => n.update)
    .filter((u): u is Extract<SessionUpdate, { sessionUpdate: K }> => u.sessionUpdate === kind);
}

/** The text of the model's answer chunks. */
export function messageText(acp: OiAcp, sessionId?: string): string {
  return updatesOf(acp, 'agent_message_chunk', sessionId)
    .map((u) => (u.content.type === 'text' ? u.content.text : ''))
    .join('');
}

/** The `oi acp` process, model server and data folder the tests of one file share. */
export interface OiAcpForFile {
  readonly llm: ScriptedLlm;
  readonly acp: OiAcp;
  /** The data folder (its conversations/ is oi's); make each test's project folder in it. */
  readonly dir: string;
}

/**
 * One `oi acp` for all the tests of a file, as an editor starts it: an OpenAI-protocol model on the
 * scripted server, `args` added (--auto-run), started in `cwd` under the data folder (default: the
 * folder itself) and initialized, before the tests; stopped, with its server and folder, after them.
 * Read it only inside tests and their hooks.
 */
export function useOiAcp(opts: { tmpPrefix: string; args?: string[]; cwd?: string; timeout: number }): OiAcpForFile {
  let llm: ScriptedLlm | undefined;
  let data: ReturnType<typeof tempDir> | undefined;
  let acp: OiAcp | undefined;
  beforeAll(async () => {
    llm = await startScriptedLlm();
    data = tempDir(opts.tmpPrefix);
    const args = ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl, ...(opts.args ?? [])];
    acp = startOiAcp(args, cliEnv(data.dir), path.join(data.dir, opts.cwd ?? ''));
    await acp.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
  }, opts.timeout);
  afterAll(async () => {
    await acp?.stop();
    await llm?.close();
    data?.remove();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('oi acp is not started (outside a test?)');
    return value;
  };
  return {
    get llm() {
      return started(llm);
    },
    get acp() {
      return started(acp);
    },
    get dir() {
      return started(data).dir;
    },
  };
}
