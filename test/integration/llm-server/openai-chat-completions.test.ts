import OpenAI, { APIError as OpenAIApiError } from 'openai';
import { describe, expect, it } from 'vitest';
import { useScriptedLlms } from '../../support/scripted-llm';
import { caught, openaiFor, RAW_ARGS, TOOLS, TRICKY, USER } from './support/sdk-clients';

// The scripted server (test/fixtures/llm-server.ts) speaks OpenAI's Chat Completions as the official SDK
// reads it: streamed and not, tool calls, usage, errors and dropped connections.

const start = useScriptedLlms();

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
