import Anthropic, { APIError as AnthropicApiError } from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { thinkingSignature } from '../../fixtures/llm-server';
import { useScriptedLlms } from '../../support/scripted-llm';
import { anthropicFor, caught, RAW_ARGS, TRICKY, USER } from './support/sdk-clients';

// The scripted server (test/fixtures/llm-server.ts) speaks Anthropic's Messages API as the official SDK
// reads it: thinking, tool_use blocks, usage, errors and dropped connections.

const start = useScriptedLlms();

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
