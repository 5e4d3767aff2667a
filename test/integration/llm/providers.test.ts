import type { ConversationItem, UserItem } from '@contract';
import { describe, expect, it } from 'vitest';
import { AnthropicProvider } from '../../../src-main/core/llm/anthropic-provider';
import { executeTool } from '../../../src-main/core/llm/execute-tool';
import { OpenAiProvider } from '../../../src-main/core/llm/openai-provider';
import { buildProvider } from '../../../src-main/core/llm/provider-factory';
import type { ImageData, Provider, ProviderEvent, ProviderRequest } from '../../../src-main/core/llm/provider';
import { useScriptedLlms } from '../../support/scripted-llm';

const start = useScriptedLlms();

const PNG: ImageData = {
  mime: 'image/png',
  base64: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
};
const user = (text: string, attachments: UserItem['attachments'] = []): UserItem => ({
  kind: 'user',
  id: `u${text.length}`,
  text,
  attachments,
  createdAt: '2026-01-01T00:00:00Z',
});

function request(items: ConversationItem[], extra: Partial<ProviderRequest> = {}): ProviderRequest {
  return {
    model: 'scripted-model',
    system: 'be brief',
    items,
    tools: [executeTool],
    images: new Map(),
    temperature: null,
    maxOutputTokens: 1024,
    maxOutputTokensSet: false,
    signal: new AbortController().signal,
    ...extra,
  };
}

async function collect(provider: Provider, req: ProviderRequest): Promise<ProviderEvent[]> {
  const out: ProviderEvent[] = [];
  for await (const ev of provider.stream(req)) out.push(ev);
  return out;
}

const text = (events: ProviderEvent[]) => events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');
const args = (events: ProviderEvent[], index: number) =>
  events.flatMap((e) => (e.type === 'tool-call-delta' && e.index === index ? [e.argumentsDelta] : [])).join('');

const image = { path: 'attachments/dot.png', name: 'dot.png', mime: 'image/png', size: 70 };
const pdf = { path: 'attachments/report.pdf', name: 'report.pdf', mime: 'application/pdf', size: 1234 };

describe('OpenAiProvider', () => {
  it('streams multi-byte text and reports usage', async () => {
    const llm = await start({ chunkSize: 1, usage: { input: 11, output: 5 } });
    llm.enqueue({ kind: 'text', text: 'Grüße, 世界 👩‍💻!' });
    const events = await collect(new OpenAiProvider({ kind: 'openai', apiKey: 'k', baseUrl: llm.openaiBaseUrl }), request([user('hi')]));
    expect(text(events)).toBe('Grüße, 世界 👩‍💻!');
    expect(events).toContainEqual({ type: 'usage', inputTokens: 11, outputTokens: 5 });
    expect(events.at(-1)).toEqual({ type: 'done', stopReason: 'stop' });
  });

  it('sends image attachments as base64 image parts and names other attachments in the text', async () => {
    const llm = await start();
    llm.enqueue({ kind: 'text', text: 'a dot' });
    await collect(
      new OpenAiProvider({ kind: 'openai', apiKey: 'k', baseUrl: llm.openaiBaseUrl }),
      request([user('what is this?', [image, pdf])], { images: new Map([[image.path, PNG]]) }),
    );
    const body = llm.requests[0]?.body as { messages: Array<{ role: string; content: unknown }> };
    const content = body.messages[1]?.content as Array<{ type: string; text?: string; image_url?: { url: string } }>;
    expect(content[1]).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.base64}` } });
    expect(content[0]?.text).toContain('what is this?');
    expect(content[0]?.text).toContain('report.pdf (application/pdf, 1234 bytes) at attachments/report.pdf');
  });

  it('lists models from the server', async () => {
    const llm = await start({ models: ['m-b', 'm-a'] });
    expect(await new OpenAiProvider({ kind: 'openai', apiKey: 'k', baseUrl: llm.openaiBaseUrl }).listModels()).toEqual(['m-a', 'm-b']);
  });
});

describe('AnthropicProvider', () => {
  it('streams thinking with its signature, text and two tool_use inputs split at every character', async () => {
    const llm = await start({ chunkSize: 1, usage: { input: 30, output: 12 } });
    const input = { language: 'python', code: 'print("naïve \\"q\\" 🚀")\n' };
    llm.enqueue({
      kind: 'tool',
      thinking: 'Plan: print it. 考える',
      text: 'Running.',
      calls: [
        { id: 'toolu_1', name: 'execute', arguments: input },
        { id: 'toolu_2', name: 'execute', arguments: { language: 'shell', code: 'ls' } },
      ],
    });
    const events = await collect(new AnthropicProvider({ apiKey: 'k', baseUrl: llm.anthropicBaseUrl }), request([user('go')]));
    const thinking = events.find((e) => e.type === 'thinking');
    expect(thinking).toMatchObject({ thinking: 'Plan: print it. 考える' });
    expect(thinking?.type === 'thinking' && thinking.signature.length).toBeGreaterThan(10);
    expect(text(events)).toBe('Running.');
    const starts = events.filter((e) => e.type === 'tool-call-start');
    expect(starts.map((e) => e.type === 'tool-call-start' && e.id)).toEqual(['toolu_1', 'toolu_2']);
    const [first, second] = starts.map((e) => (e.type === 'tool-call-start' ? e.index : -1));
    expect(JSON.parse(args(events, first ?? -1))).toEqual(input);
    expect(JSON.parse(args(events, second ?? -1))).toEqual({ language: 'shell', code: 'ls' });
    expect(events).toContainEqual({ type: 'usage', inputTokens: 30, outputTokens: 12 });
    expect(events.at(-1)).toEqual({ type: 'done', stopReason: 'tool_use' });
    expect(llm.requests[0]?.headers.authorization).toBe('Bearer k');
  });

  it('sends images as base64 image blocks before the text, and the system prompt on its own', async () => {
    const llm = await start();
    llm.enqueue({ kind: 'text', text: 'ok' });
    await collect(
      new AnthropicProvider({ apiKey: 'k', baseUrl: llm.anthropicBaseUrl }),
      request([user('see', [image])], { images: new Map([[image.path, PNG]]) }),
    );
    const body = llm.requests[0]?.body as { system: string; messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
    expect(body.system).toBe('be brief');
    expect(body.messages[0]?.content[0]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG.base64 } });
    expect(body.messages[0]?.content[1]).toMatchObject({ type: 'text' });
  });

  it('lists models from the server', async () => {
    const llm = await start({ models: ['claude-a', 'claude-b'] });
    expect(await new AnthropicProvider({ apiKey: 'k', baseUrl: llm.anthropicBaseUrl }).listModels()).toEqual(['claude-a', 'claude-b']);
  });
});

describe('local and OpenAI-compatible providers', () => {
  it('talks to Ollama through its native /api/chat and lists models from /api/tags', async () => {
    const llm = await start({ models: ['qwen2.5-coder:7b', 'llama3.2:3b'] });
    llm.enqueue({ kind: 'text', text: 'local hello' });
    const ollama = buildProvider({ provider: 'ollama', baseUrl: llm.openaiBaseUrl }, null);
    expect(ollama.kind).toBe('ollama');
    expect(await ollama.listModels()).toEqual(['llama3.2:3b', 'qwen2.5-coder:7b']);
    expect(llm.requests.at(-1)?.path).toBe('/api/tags');
    expect(text(await collect(ollama, { ...request([user('hi')]), model: 'qwen2.5-coder:7b' }))).toBe('local hello');
    // Its native API, so the context window can be set (the OpenAI-compatible endpoint ignores num_ctx).
    expect(llm.requests.at(-1)?.path).toBe('/api/chat');
    expect((llm.requests.at(-1)?.body as { options?: { num_ctx?: number } }).options?.num_ctx).toBeGreaterThan(0);
  });

  it('uses any OpenAI-compatible base URL, and says a base URL is needed when none is set', async () => {
    const llm = await start();
    llm.enqueue({ kind: 'text', text: 'compatible' });
    const compatible = buildProvider({ provider: 'openai-compatible', baseUrl: llm.openaiBaseUrl }, null);
    expect(text(await collect(compatible, request([user('hi')])))).toBe('compatible');
    expect(() => buildProvider({ provider: 'openai-compatible', baseUrl: null }, null)).toThrow(/needs a base URL/);
    expect(() => buildProvider({ provider: 'anthropic', baseUrl: null }, null)).toThrow(/ANTHROPIC_API_KEY/);
  });

  it('explains how to start Ollama when nothing answers', async () => {
    const ollama = buildProvider({ provider: 'ollama', baseUrl: 'http://127.0.0.1:9/v1' }, null);
    await expect(ollama.listModels()).rejects.toThrow(/could not reach Ollama at http:\/\/127\.0\.0\.1:9.*ollama serve/);
  });
});
