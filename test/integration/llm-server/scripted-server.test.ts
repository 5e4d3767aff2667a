import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { useScriptedLlms } from '../../support/scripted-llm';
import { anthropicFor, caught, openaiFor, USER } from './support/sdk-clients';

// The scripted server's own behaviour (test/fixtures/llm-server.ts): one queue for both protocols,
// seeded chunking, cut writes, hung requests, model discovery.

const start = useScriptedLlms();

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
