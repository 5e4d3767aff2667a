import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OllamaProvider } from '../../../src-main/core/llm/ollama-provider';
import type { ProviderRequest } from '../../../src-main/core/llm/provider';

let server: Server | null = null;
afterEach(async () => {
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server = null;
});

/** A real HTTP server that answers every request with this status and body (as a proxy or a wrong port does). */
async function answering(status: number, body: string): Promise<string> {
  server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.end(body);
  });
  await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const request: ProviderRequest = {
  model: 'qwen2.5-coder:7b',
  system: 'be brief',
  items: [],
  tools: [],
  images: new Map(),
  temperature: null,
  maxOutputTokens: 256,
  maxOutputTokensSet: false,
  signal: new AbortController().signal,
};

async function failureOf(baseUrl: string): Promise<string> {
  const provider = new OllamaProvider({ baseUrl, keepAlive: '5m' });
  try {
    const events: unknown[] = [];
    for await (const event of provider.stream(request)) events.push(event);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('the request did not fail');
}

describe('Ollama HTTP errors read as whole sentences', () => {
  it('says the body was empty instead of ending in a bare colon', async () => {
    const message = await failureOf(await answering(404, ''));
    expect(message).toMatch(/^Ollama answered 404 to POST http:\/\/127\.0\.0\.1:\d+\/api\/chat with an empty body/);
    expect(message.trimEnd()).not.toMatch(/:$/);
  });

  it('keeps what the server said when it said something', async () => {
    const message = await failureOf(await answering(500, 'out of memory\n'));
    expect(message).toMatch(/\/api\/chat: out of memory$/);
  });
});
