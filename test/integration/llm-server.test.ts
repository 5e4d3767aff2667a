import Anthropic, { APIError as AnthropicApiError } from '@anthropic-ai/sdk';
import { request } from 'node:http';
import OpenAI, { APIError as OpenAIApiError } from 'openai';
import { describe, expect, it } from 'vitest';
import { thinkingSignature, type ScriptedLlm } from '../fixtures/llm-server';
import { useScriptedLlms } from '../support/scripted-llm';

const start = useScriptedLlms();

const openaiFor = (llm: ScriptedLlm, maxRetries = 0) => new OpenAI({ apiKey: 'test-key', baseURL: llm.openaiBaseUrl, maxRetries });
const anthropicFor = (llm: ScriptedLlm, maxRetries = 0) => new Anthropic({ apiKey: 'test-key', baseURL: llm.anthropicBaseUrl, maxRetries });

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

// Every escape JSON has, plus multi-byte text, so arbitrary split points land somewhere awkward.
const TRICKY = {
  code: 'print("C:\\Users\\me")\n\tprint(\'done\')\r\n',
  note: '日本語のテキスト 🚀👩‍💻 ünïcödé \u0001 end',
  nested: { list: [1, 2.5, -3e-7, true, null], empty: '' },
};
const RAW_ARGS = '{"path": "/tmp/a b.txt",\n  "mode": "w"}';

const USER = [{ role: 'user' as const, content: 'hi' }];
const TOOLS: OpenAI.Chat.ChatCompletionTool[] = [
  { type: 'function', function: { name: 'run_code', parameters: { type: 'object', properties: { code: { type: 'string' } } } } },
  { type: 'function', function: { name: 'write_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } },
];

describe('OpenAI Chat Completions', () => {
  it('streams text deltas that join into the scripted answer and ends with a choice-less usage chunk', async () => {
    const llm = await start({ usage: { input: 42, output: 7 } });
    llm.enqueue({ kind: 'text', text: 'Hello, 世界 🌍! Here is a longer answer to split.' });
    const stream = await openaiFor(llm).chat.completions.create({
      model: 'gpt-test',
      messages: USER,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
    for await (const chunk of stream) {
      chunks.push(chunk);
      text += chunk.choices[0]?.delta.content ?? '';
    }
    expect(text).toBe('Hello, 世界 🌍! Here is a longer answer to split.');
    expect(chunks.length).toBeGreaterThan(4);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.at(-1)?.choices).toEqual([]);
    expect(chunks.at(-1)?.usage).toMatchObject({ prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 });
    expect(chunks.every((chunk) => chunk.model === 'gpt-test')).toBe(true);
  });

  it('sends no usage chunk unless the request asks for one', async () => {
    const llm = await start();
    llm.enqueue({ kind: 'text', text: 'short' });
    const stream = await openaiFor(llm).chat.completions.create({ model: 'gpt-test', messages: USER, stream: true });
    for await (const chunk of stream) expect(chunk.choices).toHaveLength(1);
  });

  it.each([
    { label: 'one character per chunk', chunkSize: 1 as const },
    { label: 'seeded random chunks', chunkSize: 'random' as const },
  ])('streams two tool calls whose argument fragments reassemble exactly ($label)', async ({ chunkSize }) => {
    const llm = await start({ chunkSize });
    llm.enqueue({
      kind: 'tool',
      calls: [
        { name: 'run_code', arguments: TRICKY },
        { id: 'call_given', name: 'write_file', arguments: RAW_ARGS },
      ],
    });
    const stream = await openaiFor(llm).chat.completions.create({
      model: 'gpt-test',
      messages: USER,
      tools: TOOLS,
      stream: true,
      stream_options: { include_usage: true },
    });
    const calls: Array<{ id: string; name: string; fragments: string[] }> = [];
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      finish ??= choice?.finish_reason;
      for (const delta of choice?.delta.tool_calls ?? []) {
        if (delta.id !== undefined) calls[delta.index] = { id: delta.id, name: delta.function?.name ?? '', fragments: [] };
        calls[delta.index]?.fragments.push(delta.function?.arguments ?? '');
      }
    }
    expect(finish).toBe('tool_calls');
    expect(calls.map((call) => call.name)).toEqual(['run_code', 'write_file']);
    expect(calls[0]?.id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(calls[1]?.id).toBe('call_given');
    expect(calls[0]?.fragments.join('')).toBe(JSON.stringify(TRICKY));
    expect(JSON.parse(calls[0]?.fragments.join('') ?? '')).toEqual(TRICKY);
    expect(calls[1]?.fragments.join('')).toBe(RAW_ARGS);
    expect(calls[0]?.fragments.filter((f) => f !== '').length).toBeGreaterThan(10);
    // One character per chunk necessarily separates each backslash from the character it escapes.
    if (chunkSize === 1) expect(calls[0]?.fragments).toContain('\\');
  });

  it("assembles the same tool calls through the SDK's own stream helper", async () => {
    const llm = await start();
    llm.enqueue({
      kind: 'tool',
      text: 'Running it.',
      calls: [
        { name: 'run_code', arguments: TRICKY },
        { name: 'write_file', arguments: RAW_ARGS },
      ],
    });
    const final = await openaiFor(llm).chat.completions.stream({ model: 'gpt-test', messages: USER, tools: TOOLS }).finalChatCompletion();
    const message = final.choices[0]?.message;
    expect(message?.content).toBe('Running it.');
    expect(message?.tool_calls?.map((call) => (call.type === 'function' ? [call.function.name, call.function.arguments] : []))).toEqual([
      ['run_code', JSON.stringify(TRICKY)],
      ['write_file', RAW_ARGS],
    ]);
  });

  it('answers non-streaming requests in chat.completion shape', async () => {
    const llm = await start({ usage: { input: 3, output: 4 } });
    llm.enqueue({ kind: 'text', text: 'plain' }, { kind: 'tool', calls: [{ name: 'run_code', arguments: { code: 'x' } }] });
    const client = openaiFor(llm);
    const text = await client.chat.completions.create({ model: 'gpt-test', messages: USER });
    expect(text.choices[0]).toMatchObject({ finish_reason: 'stop', message: { role: 'assistant', content: 'plain' } });
    expect(text.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
    const tool = await client.chat.completions.create({ model: 'gpt-test', messages: USER, tools: TOOLS });
    expect(tool.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: { content: null, tool_calls: [{ type: 'function', function: { name: 'run_code', arguments: '{"code":"x"}' } }] },
    });
  });

  it('records what the model was sent, including tool results and image parts', async () => {
    const llm = await start();
    llm.enqueue({ kind: 'text', text: 'ok' });
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'run_code', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'exit code 0' },
    ];
    await openaiFor(llm).chat.completions.create({ model: 'gpt-test', messages });
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      protocol: 'openai',
      body: { model: 'gpt-test', messages },
    });
    expect(llm.requests[0]?.headers.authorization).toBe('Bearer test-key');
  });

  it('surfaces a scripted 429 with its retry-after header as a RateLimitError', async () => {
    const llm = await start();
    llm.enqueue({ kind: 'error', status: 429, message: 'slow down', headers: { 'retry-after': '7' } });
    const error = await caught(openaiFor(llm).chat.completions.create({ model: 'gpt-test', messages: USER }));
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const apiError = error as OpenAIApiError;
    expect(apiError.status).toBe(429);
    expect(apiError.headers?.get('retry-after')).toBe('7');
    expect(apiError.message).toContain('slow down');
    expect(apiError.code).toBe('rate_limit_exceeded');
  });

  it('surfaces a scripted 500 as an InternalServerError', async () => {
    const llm = await start();
    llm.enqueue({ kind: 'error', status: 500, message: 'boom' });
    const error = await caught(openaiFor(llm).chat.completions.create({ model: 'gpt-test', messages: USER, stream: true }));
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect((error as OpenAIApiError).message).toContain('boom');
  });

  it('makes the stream throw after the partial text when the connection drops', async () => {
    const llm = await start();
    llm.enqueue({ kind: 'drop', text: 'I was saying something impor' });
    const stream = await openaiFor(llm).chat.completions.create({ model: 'gpt-test', messages: USER, stream: true });
    let text = '';
    const error = await caught(
      (async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      })(),
    );
    expect(text).toBe('I was saying something impor');
    // undici's own error, not an OpenAI.APIError: code catching only SDK errors will miss it.
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('terminated');
  });

  it('fails clearly, once, when no reply is queued', async () => {
    const llm = await start();
    const error = await caught(openaiFor(llm, 2).chat.completions.create({ model: 'gpt-test', messages: USER }));
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect((error as Error).message).toContain('scripted LLM: no reply queued for request 1');
    expect(llm.requests).toHaveLength(1);
  });

  it('lists the configured models', async () => {
    const llm = await start({ models: ['gpt-a', 'gpt-b'] });
    const page = await openaiFor(llm).models.list();
    expect(page.data.map((model) => model.id)).toEqual(['gpt-a', 'gpt-b']);
    expect(page.data[0]).toMatchObject({ object: 'model', owned_by: 'scripted' });
    expect(llm.requests[0]?.protocol).toBe('openai');
  });
});

describe('Anthropic Messages', () => {
  it('streams a thinking block with its signature, then text, with usage', async () => {
    const llm = await start({ usage: { input: 42, output: 7 } });
    llm.enqueue({ kind: 'text', thinking: 'Let me think… 考える', text: 'The answer is 42 🎉' });
    const stream = anthropicFor(llm).messages.stream({
      model: 'claude-test',
      max_tokens: 1024,
      messages: USER,
      thinking: { type: 'enabled', budget_tokens: 512 },
    });
    let text = '';
    stream.on('text', (delta) => (text += delta));
    const final = await stream.finalMessage();
    expect(text).toBe('The answer is 42 🎉');
    expect(final.content).toEqual([
      { type: 'thinking', thinking: 'Let me think… 考える', signature: thinkingSignature('Let me think… 考える') },
      { type: 'text', text: 'The answer is 42 🎉' },
    ]);
    expect(final.stop_reason).toBe('end_turn');
    expect(final.model).toBe('claude-test');
    expect(final.usage).toMatchObject({ input_tokens: 42, output_tokens: 7 });
  });

  it('streams two tool_use blocks whose input fragments reassemble into the scripted input', async () => {
    const llm = await start({ chunkSize: 1 });
    llm.enqueue({
      kind: 'tool',
      text: 'Running.',
      calls: [
        { name: 'run_code', arguments: TRICKY },
        { id: 'toolu_given', name: 'write_file', arguments: RAW_ARGS },
      ],
    });
    const stream = await anthropicFor(llm).messages.create({ model: 'claude-test', max_tokens: 1024, messages: USER, stream: true });
    const blocks = new Map<number, { id: string; name: string; json: string }>();
    let stopReason: string | null = null;
    for await (const event of stream) {
      if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
        blocks.set(event.index, { id: event.content_block.id, name: event.content_block.name, json: '' });
      }
      if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') {
        const block = blocks.get(event.index);
        if (block) block.json += event.delta.partial_json;
      }
      if (event.type === 'message_delta') stopReason = event.delta.stop_reason;
    }
    expect(stopReason).toBe('tool_use');
    const [first, second] = [...blocks.values()];
    expect(first?.id).toMatch(/^toolu_[A-Za-z0-9]{24}$/);
    expect(first?.name).toBe('run_code');
    expect(JSON.parse(first?.json ?? '')).toEqual(TRICKY);
    expect(second).toEqual({ id: 'toolu_given', name: 'write_file', json: RAW_ARGS });
  });

  it("gives tool_use input objects equal to the script through the SDK's finalMessage()", async () => {
    const llm = await start();
    llm.enqueue({
      kind: 'tool',
      thinking: 'plan',
      calls: [
        { name: 'run_code', arguments: TRICKY },
        { name: 'write_file', arguments: RAW_ARGS },
      ],
    });
    const final = await anthropicFor(llm).messages.stream({ model: 'claude-test', max_tokens: 1024, messages: USER }).finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content.map((block) => block.type)).toEqual(['thinking', 'tool_use', 'tool_use']);
    const inputs = final.content.flatMap((block) => (block.type === 'tool_use' ? [block.input] : []));
    expect(inputs).toEqual([TRICKY, JSON.parse(RAW_ARGS)]);
  });

  it('answers non-streaming requests with a complete message', async () => {
    const llm = await start({ usage: { input: 5, output: 6 } });
    llm.enqueue({ kind: 'tool', text: 'Sure.', calls: [{ id: 'toolu_x', name: 'run_code', arguments: { code: 'x' } }] });
    const message = await anthropicFor(llm).messages.create({ model: 'claude-test', max_tokens: 1024, messages: USER });
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      stop_reason: 'tool_use',
      content: [
        { type: 'text', text: 'Sure.' },
        { type: 'tool_use', id: 'toolu_x', name: 'run_code', input: { code: 'x' } },
      ],
      usage: { input_tokens: 5, output_tokens: 6 },
    });
  });

  it('records what the model was sent, including tool results and images', async () => {
    const llm = await start();
    llm.enqueue({ kind: 'text', text: 'ok' });
    const messages: Anthropic.MessageParam[] = [
      { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'run_code', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'exit code 0' }] },
    ];
    await anthropicFor(llm).messages.create({ model: 'claude-test', max_tokens: 1024, system: 'be brief', messages });
    expect(llm.requests[0]).toMatchObject({ path: '/v1/messages', protocol: 'anthropic', body: { system: 'be brief', messages } });
    // SDK 1.x sends the key as a bearer token; older ones (and curl examples) use x-api-key.
    const { authorization, 'x-api-key': apiKey, 'anthropic-version': version } = llm.requests[0]?.headers ?? {};
    expect(apiKey ?? authorization?.replace(/^Bearer /, '')).toBe('test-key');
    expect(version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('surfaces a scripted 429 with retry-after as a RateLimitError of type rate_limit_error', async () => {
    const llm = await start();
    llm.enqueue({ kind: 'error', status: 429, message: 'slow down', headers: { 'retry-after': '3' } });
    const error = await caught(anthropicFor(llm).messages.create({ model: 'claude-test', max_tokens: 10, messages: USER }));
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    const apiError = error as AnthropicApiError;
    expect(apiError.headers?.get('retry-after')).toBe('3');
    expect(apiError.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } });
  });

  it('surfaces a scripted 500 as an InternalServerError of type api_error', async () => {
    const llm = await start();
    llm.enqueue({ kind: 'error', status: 500 });
    const error = await caught(anthropicFor(llm).messages.stream({ model: 'claude-test', max_tokens: 10, messages: USER }).finalMessage());
    expect(error).toBeInstanceOf(Anthropic.InternalServerError);
    expect((error as AnthropicApiError).error).toMatchObject({ error: { type: 'api_error' } });
  });

  it('makes the stream fail after the partial text when the connection drops', async () => {
    const llm = await start();
    llm.enqueue({ kind: 'drop', text: 'Half of a sent' });
    const stream = anthropicFor(llm).messages.stream({ model: 'claude-test', max_tokens: 10, messages: USER });
    let text = '';
    stream.on('text', (delta) => (text += delta));
    const error = await caught(stream.finalMessage());
    expect(text).toBe('Half of a sent');
    expect(error).toBeInstanceOf(Anthropic.AnthropicError);
    expect((error as Error).message).toBe('terminated');
  });

  it('fails clearly, once, when no reply is queued', async () => {
    const llm = await start();
    llm.enqueue({ kind: 'text', text: 'first' });
    const client = anthropicFor(llm, 2);
    await client.messages.create({ model: 'claude-test', max_tokens: 10, messages: USER });
    const error = await caught(client.messages.create({ model: 'claude-test', max_tokens: 10, messages: USER }));
    expect((error as Error).message).toContain('scripted LLM: no reply queued for request 2');
    expect(llm.requests).toHaveLength(2);
  });

  it("lists the configured models in Anthropic's format when anthropic-version is sent", async () => {
    const llm = await start({ models: ['claude-a', 'claude-b'] });
    const ids: string[] = [];
    for await (const model of anthropicFor(llm).models.list()) ids.push(model.id);
    expect(ids).toEqual(['claude-a', 'claude-b']);
    const raw = await fetch(`${llm.url}/v1/models`, { headers: { 'anthropic-version': '2023-06-01' } }).then((res) => res.json());
    expect(raw).toMatchObject({
      has_more: false,
      first_id: 'claude-a',
      last_id: 'claude-b',
      data: [{ type: 'model', id: 'claude-a', display_name: 'claude-a' }, {}],
    });
    expect(llm.requests.map((request) => request.protocol)).toEqual(['anthropic', 'anthropic']);
  });
});

describe('the scripted server itself', () => {
  it('serves both protocols from one queue, in order', async () => {
    const llm = await start();
    llm.enqueue({ kind: 'text', text: 'first' }, { kind: 'text', text: 'second' });
    const a = await openaiFor(llm).chat.completions.create({ model: 'gpt-test', messages: USER });
    expect(llm.pending()).toBe(1);
    const b = await anthropicFor(llm).messages.create({ model: 'claude-test', max_tokens: 10, messages: USER });
    expect(a.choices[0]?.message.content).toBe('first');
    expect(b.content).toEqual([{ type: 'text', text: 'second' }]);
    expect(llm.pending()).toBe(0);
  });

  it('splits the same reply the same way for the same seed, and differently for another', async () => {
    const deltasWith = async (seed: number) => {
      const llm = await start({ seed });
      llm.enqueue({ kind: 'text', text: 'The quick brown fox jumps over the lazy dog, twice over.' });
      const deltas: string[] = [];
      const stream = await openaiFor(llm).chat.completions.create({ model: 'gpt-test', messages: USER, stream: true });
      for await (const chunk of stream) deltas.push(chunk.choices[0]?.delta.content ?? '');
      return deltas;
    };
    const first = await deltasWith(7);
    expect(await deltasWith(7)).toEqual(first);
    expect(await deltasWith(8)).not.toEqual(first);
  });

  it('cuts socket writes mid-frame and inside UTF-8 characters, so clients must reassemble bytes', async () => {
    const llm = await start();
    llm.enqueue({ kind: 'text', text: '日本語のテキスト 🚀 '.repeat(10) });
    const reads = await new Promise<Buffer[]>((resolve, reject) => {
      const req = request(
        `${llm.openaiBaseUrl}/chat/completions`,
        { method: 'POST', headers: { 'content-type': 'application/json' } },
        (res) => {
          const parts: Buffer[] = [];
          res.on('data', (part: Buffer) => parts.push(part));
          res.on('end', () => resolve(parts));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ model: 'gpt-test', stream: true }));
    });
    const strict = new TextDecoder('utf-8', { fatal: true });
    const splitsCharacter = (part: Buffer) => {
      try {
        strict.decode(part);
        return false;
      } catch {
        return true;
      }
    };
    expect(reads.some((part) => !part.toString('utf8').endsWith('\n\n'))).toBe(true);
    expect(reads.some(splitsCharacter)).toBe(true);
    expect(Buffer.concat(reads).toString('utf8')).toMatch(/^data: \{.*\n\ndata: \[DONE\]\n\n$/s);
  });

  it('keeps a hung request open until the client aborts, and close() still ends the others', async () => {
    let arrived = 0;
    const llm = await start({
      onRequest: () => {
        arrived++;
      },
    });
    llm.enqueue({ kind: 'hang' }, { kind: 'hang' });
    const client = openaiFor(llm);
    const controller = new AbortController();
    const aborted = client.chat.completions
      .create({ model: 'gpt-test', messages: USER, stream: true }, { signal: controller.signal })
      .then(async (stream) => {
        let chunks = 0;
        for await (const chunk of stream) chunks += chunk.choices.length;
        return chunks;
      });
    const leftOpen = anthropicFor(llm).messages.create({ model: 'claude-test', max_tokens: 10, messages: USER });
    while (arrived < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    // The openai SDK ends an aborted stream quietly instead of throwing: callers must check the signal.
    expect(await aborted).toBe(0);
    await llm.close();
    expect(await caught(leftOpen)).toBeInstanceOf(Error);
  });

  it('answers Ollama-style model discovery and reports unknown routes as 404', async () => {
    const llm = await start({ models: ['llama3.2:1b', 'qwen2.5:0.5b'] });
    const tags = (await fetch(`${llm.url}/api/tags`).then((res) => res.json())) as {
      models: Array<{ name: string; model: string; size: number; modified_at: string }>;
    };
    expect(tags.models.map((model) => model.name)).toEqual(['llama3.2:1b', 'qwen2.5:0.5b']);
    expect(tags.models[0]).toMatchObject({ model: 'llama3.2:1b', modified_at: expect.any(String), size: expect.any(Number) });
    const missing = await fetch(`${llm.url}/v1/nothing`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { message: expect.stringContaining('/v1/nothing') } });
  });
});
