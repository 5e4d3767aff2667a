import { describe, expect, it } from 'vitest';
import { useScriptedLlms } from '../../support/scripted-llm';
import { openaiFor, RAW_ARGS, TRICKY } from './support/sdk-clients';

// The scripted server's OpenAI Responses API (POST /v1/responses, what Codex speaks to a custom provider:
// test/integration/acp/codex.test.ts) as the official SDK reads it: streamed text, function calls whose
// argument deltas reassemble, the final response with its usage, and the same reply unstreamed.

const start = useScriptedLlms();

describe('OpenAI Responses', () => {
  it('streams text deltas that join into the scripted answer and ends with the completed response and its usage', async () => {
    const llm = await start({ usage: { input: 42, output: 7 } });
    llm.enqueue({ kind: 'text', text: 'Hello, 世界 🌍! Here is a longer answer to split.' });
    const stream = await openaiFor(llm).responses.create({ model: 'gpt-test', input: 'hi', stream: true });
    let text = '';
    const types: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') {
        expect(event.response.output).toEqual([
          expect.objectContaining({
            type: 'message',
            content: [expect.objectContaining({ text: 'Hello, 世界 🌍! Here is a longer answer to split.' })],
          }),
        ]);
        expect(event.response.usage).toMatchObject({ input_tokens: 42, output_tokens: 7, total_tokens: 49 });
      }
    }
    expect(text).toBe('Hello, 世界 🌍! Here is a longer answer to split.');
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(llm.requests[0]).toMatchObject({ path: '/v1/responses', protocol: 'openai' });
  });

  it('streams function calls whose argument deltas reassemble exactly, and answers unstreamed with the same items', async () => {
    const llm = await start({ chunkSize: 1 });
    const calls = [
      { name: 'exec_command', arguments: TRICKY },
      { id: 'call_given', name: 'write_file', arguments: RAW_ARGS },
    ];
    llm.enqueue({ kind: 'tool', calls }, { kind: 'tool', text: 'first this', calls });
    const stream = await openaiFor(llm).responses.create({ model: 'gpt-test', input: 'hi', stream: true });
    const args = new Map<number, string>();
    const done: unknown[] = [];
    for await (const event of stream) {
      if (event.type === 'response.function_call_arguments.delta')
        args.set(event.output_index, (args.get(event.output_index) ?? '') + event.delta);
      if (event.type === 'response.output_item.done') done.push(event.item);
    }
    expect(args.get(0)).toBe(JSON.stringify(TRICKY));
    expect(args.get(1)).toBe(RAW_ARGS);
    expect(done).toEqual([
      expect.objectContaining({ type: 'function_call', name: 'exec_command', arguments: JSON.stringify(TRICKY) }),
      expect.objectContaining({ type: 'function_call', name: 'write_file', call_id: 'call_given', arguments: RAW_ARGS }),
    ]);

    const whole = await openaiFor(llm).responses.create({ model: 'gpt-test', input: 'hi' });
    expect(whole.output_text).toBe('first this');
    expect(whole.output.map((item) => item.type)).toEqual(['message', 'function_call', 'function_call']);
  });
});
