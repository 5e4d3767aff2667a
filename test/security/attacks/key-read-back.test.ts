import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MemorySecretStore } from '../../../src-main/core/secrets/memory-secret-store';
import { frameText } from '../../../src-main/server/frame-text';
import { startAppUnderTest, type AppUnderTest } from '../../support/app-under-test';

// Issue 17, finding 4: a request over the bridge names its own server as the base URL, hoping the
// app sends a stored key there (an echo server hands it straight back in the model list). A stored key
// may only go to the provider's own endpoint or the base URL saved in settings for it.

const STORED = {
  openai: 'sk-stored-openai-canary-7f3a91c2d4e5',
  anthropic: 'sk-ant-stored-canary-0b8e6d2f9a14',
  'openai-compatible': 'sk-stored-compatible-canary-5c1d7e3b',
  // A hosted service's key: only ever sent to the service's own host (not contacted here: no network).
  openrouter: 'sk-or-stored-canary-92e0aa5d71c6',
} as const;
type KeyProvider = keyof typeof STORED;
const PROVIDERS = ['openai', 'anthropic', 'openai-compatible'] as const;

/** Answers any GET with a model list whose ids are the credentials it was sent. */
async function startEchoServer(): Promise<{ url: string; seen: IncomingHttpHeaders[]; close(): Promise<void> }> {
  const seen: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.headers);
    const ids = [req.headers.authorization, req.headers['x-api-key']].filter((v): v is string => typeof v === 'string');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: [{ id: 'echo-model' }, ...ids.map((id) => ({ id }))] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The page's side of the bridge: a WebSocket with the token cookie, every frame it receives kept. */
async function openBridge(aut: AppUnderTest): Promise<{
  frames: string[];
  call(name: string, input: unknown): Promise<{ ok: boolean; result?: unknown; error?: { message: string } }>;
  close(): void;
}> {
  const ws = new WebSocket(`${aut.server.url.replace('http', 'ws')}/ws`, {
    headers: { cookie: `${aut.server.cookieName}=${aut.server.token}`, origin: aut.server.url },
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const frames: string[] = [];
  const waiting = new Map<number, (msg: { ok: boolean; result?: unknown; error?: { message: string } }) => void>();
  ws.on('message', (data) => {
    const text = frameText(data);
    frames.push(text);
    const msg = JSON.parse(text) as { type: string; id: number; ok: boolean; result?: unknown; error?: { message: string } };
    if (msg.type === 'response') waiting.get(msg.id)?.(msg);
  });
  let next = 1;
  return {
    frames,
    call(name, input) {
      const id = next++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        ws.send(JSON.stringify({ type: 'request', id, name, input }));
      });
    },
    close: () => ws.close(),
  };
}

describe('attack: reading stored keys back through a base URL the request names', () => {
  let aut: AppUnderTest;
  let echo: Awaited<ReturnType<typeof startEchoServer>>;
  let bridge: Awaited<ReturnType<typeof openBridge>>;
  const credentials = () => echo.seen.map((h) => `${h.authorization ?? ''} ${String(h['x-api-key'] ?? '')}`).join('\n');

  beforeAll(async () => {
    echo = await startEchoServer();
    const secrets = new MemorySecretStore();
    for (const p of Object.keys(STORED) as KeyProvider[]) await secrets.set(`provider:${p}`, STORED[p]);
    // Settings as a user has them: OpenAI at the scripted server's address (saved), nothing else.
    aut = await startAppUnderTest({}, { secrets });
    bridge = await openBridge(aut);
  });
  afterAll(async () => {
    bridge?.close();
    await aut?.close();
    await echo?.close();
  });

  it('no stored key reaches the echo server or comes back over the WebSocket, however the URL is spelled', async () => {
    const port = new URL(echo.url).port;
    const spellings = [
      `${echo.url}/v1`,
      `${echo.url}/v1/`,
      `${echo.url}`,
      `http://localhost:${port}/v1`,
      `http://user:pw@127.0.0.1:${port}/v1`,
      `${echo.url}/v1?x=1`,
      `HTTP://127.0.0.1:${port}/V1`,
    ];
    const answers: Array<{ name: string; answer: Awaited<ReturnType<typeof bridge.call>> }> = [];
    for (const provider of PROVIDERS) {
      for (const baseUrl of spellings) {
        answers.push({ name: 'keys.test', answer: await bridge.call('keys.test', { provider, baseUrl }) });
        answers.push({ name: 'providers.models', answer: await bridge.call('providers.models', { provider, baseUrl }) });
      }
    }
    // The attack's goal first: the key at the echo server, or back in a frame.
    for (const stored of Object.values(STORED)) {
      expect(credentials(), 'a stored key reached the echo server').not.toContain(stored);
      expect(bridge.frames.join('\n'), 'a stored key came back over the WebSocket').not.toContain(stored);
    }
    // The compatible provider's listing did reach the echo server — without any key.
    expect(echo.seen.length).toBeGreaterThan(0);
    // And each refusal says what to do.
    for (const { name, answer } of answers) {
      if (name === 'keys.test')
        expect(answer).toMatchObject({ ok: true, result: { ok: false, message: expect.stringMatching(/type the key/) } });
      else if (!answer.ok)
        expect(answer.error?.message).toMatch(/only sent to the provider's own address or to the base URL saved in Settings/);
    }
  });

  it("the stored key still goes where the user saved it (the scripted server as OpenAI's base URL)", async () => {
    const before = aut.llm.requests.length;
    const tested = await bridge.call('keys.test', { provider: 'openai' });
    expect(tested).toMatchObject({ ok: true, result: { ok: true } });
    expect(aut.llm.requests.slice(before).map((r) => r.headers.authorization)).toContain(`Bearer ${STORED.openai}`);
    const listed = await bridge.call('providers.models', { provider: 'openai', baseUrl: aut.llm.openaiBaseUrl + '/' });
    expect(listed.ok).toBe(true);
  });

  it('twin: a key typed in the request does go to the URL it names, and the echo server hands it back', async () => {
    for (const provider of PROVIDERS) {
      const typed = `typed-${provider}-key-d00d5e1f`;
      const tested = await bridge.call('keys.test', { provider, key: typed, baseUrl: `${echo.url}/v1` });
      expect(credentials()).toContain(typed);
      expect(JSON.stringify(tested.result)).toContain(typed);
    }
    expect(bridge.frames.join('\n')).toContain('typed-anthropic-key-d00d5e1f');
  });
});
