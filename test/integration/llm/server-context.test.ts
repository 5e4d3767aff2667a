import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerContext } from '../../../src-main/core/llm/server-context';

// Each local server says how long its window is in its own way; these stand-ins answer with the shapes
// the servers document (LM Studio's REST API v0, vLLM's model list, llama.cpp's /props).

let server: Server | null = null;
afterEach(async () => {
  const open = server;
  server = null;
  if (open) await new Promise((resolve) => open.close(resolve));
});

async function serve(routes: Record<string, unknown>): Promise<{ baseUrl: string; asked: string[] }> {
  const asked: string[] = [];
  server = createServer((req, res) => {
    asked.push(req.url ?? '');
    const body = routes[req.url ?? ''];
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { error: 'not found' }));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, asked };
}

const target = (baseUrl: string) => ({ provider: 'openai-compatible' as const, baseUrl, model: 'qwen2.5-7b-instruct' });

describe('context length from local servers', () => {
  it('LM Studio: the loaded context length, else the maximum', async () => {
    const { baseUrl } = await serve({
      '/api/v0/models/qwen2.5-7b-instruct': { id: 'qwen2.5-7b-instruct', loaded_context_length: 8192, max_context_length: 32768 },
    });
    expect(await new ServerContext().lengthFor(target(baseUrl))).toBe(8192);
  });

  it('vLLM: max_model_len of the model in /v1/models', async () => {
    const { baseUrl } = await serve({
      '/v1/models': {
        object: 'list',
        data: [
          { id: 'other', max_model_len: 4096 },
          { id: 'qwen2.5-7b-instruct', max_model_len: 16384 },
        ],
      },
    });
    expect(await new ServerContext().lengthFor(target(baseUrl))).toBe(16384);
  });

  it('llama.cpp: n_ctx of /props', async () => {
    const { baseUrl } = await serve({ '/props': { default_generation_settings: { n_ctx: 12288 }, total_slots: 1 } });
    expect(await new ServerContext().lengthFor(target(baseUrl))).toBe(12288);
  });

  it('a server that says nothing gives null, asks again later, and a found length is asked once', async () => {
    const silent = await serve({});
    const context = new ServerContext();
    expect(await context.lengthFor(target(silent.baseUrl))).toBeNull();
    const before = silent.asked.length;
    expect(await context.lengthFor(target(silent.baseUrl))).toBeNull();
    expect(silent.asked.length).toBeGreaterThan(before);
    const first = server;
    server = null;
    await new Promise((resolve) => first?.close(resolve));
    const known = await serve({ '/props': { default_generation_settings: { n_ctx: 2048 } } });
    expect(await context.lengthFor(target(known.baseUrl))).toBe(2048);
    const asked = known.asked.length;
    expect(await context.lengthFor(target(known.baseUrl))).toBe(2048);
    expect(known.asked.length).toBe(asked);
  });

  it('never asks hosted APIs', async () => {
    expect(await new ServerContext().lengthFor({ provider: 'openai', baseUrl: null, model: 'gpt-4.1' })).toBeNull();
  });
});
