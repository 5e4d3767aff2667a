import { describe, expect, it } from 'vitest';
import type { AnthropicBody, OpenAiBody } from '../../support/request-bodies';
import { useAgentHarness } from '../../support/use-agent-harness';

const startHarness = useAgentHarness();

// Arguments full of escapes and multi-byte text; chunk size 1 splits them inside every string and escape.
const TRICKY_CODE = 'printf \'%s\\n\' "naïve café — 日本語 🚀" "tab\\there" \'quote"d\'';

describe.each(['openai', 'anthropic'] as const)('a tool-call turn over %s', (protocol) => {
  it('streams code split at awkward points, runs two calls in order, and returns each result to the model', async () => {
    const h = await startHarness({ protocol, settings: { autoRun: true }, llm: { chunkSize: 1, usage: { input: 120, output: 30 } } });
    h.llm.enqueue(
      {
        kind: 'tool',
        text: 'Two steps.',
        calls: [
          { id: 'call_a', name: 'execute', arguments: { language: 'shell', code: TRICKY_CODE } },
          { id: 'call_b', name: 'execute', arguments: { language: 'bash', code: 'echo second-$((40 + 2))' } },
        ],
      },
      { kind: 'text', text: 'Both ran. ✅' },
    );
    const id = await h.newConversation();
    await h.send(id, 'run two things');

    const conv = await h.agent.snapshot(id);
    const cells = conv.items.filter((i) => i.kind === 'cell');
    expect(cells.map((c) => c.kind === 'cell' && [c.toolCallId, c.status, c.approval])).toEqual([
      ['call_a', 'done', 'auto'],
      ['call_b', 'done', 'auto'],
    ]);
    expect(cells[0]?.kind === 'cell' && cells[0].code).toBe(TRICKY_CODE);
    // The live view saw the code grow while it streamed, ending at the full code.
    const codeEvents = h.payloads('cell.code').filter((e) => e.cellId === cells[0]?.id);
    expect(codeEvents.length).toBeGreaterThan(5);
    expect(codeEvents.at(-1)?.code).toBe(TRICKY_CODE);
    expect(h.payloads('turn.end').at(-1)?.reason).toBe('done');
    expect(conv.items.at(-1)).toMatchObject({ kind: 'assistant', text: 'Both ran. ✅' });

    // Usage is what the provider reported for both calls, priced from the catalog.
    expect(conv.usage.inputTokens).toBe(240);
    expect(conv.usage.outputTokens).toBe(60);
    expect(conv.usage.costUsd).toBeGreaterThan(0);

    const second = h.bodies()[1];
    if (protocol === 'openai') {
      const body = second as unknown as OpenAiBody;
      const tools = body.messages.filter((m) => m.role === 'tool');
      expect(tools.map((m) => m.tool_call_id)).toEqual(['call_a', 'call_b']);
      expect(String(tools[0]?.content)).toContain('naïve café — 日本語 🚀');
      expect(String(tools[1]?.content)).toContain('second-42');
      const assistant = body.messages.find((m) => m.role === 'assistant');
      expect(JSON.parse(assistant?.tool_calls?.[0]?.function.arguments ?? '{}')).toEqual({ language: 'shell', code: TRICKY_CODE });
    } else {
      const body = second as unknown as AnthropicBody;
      expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
      const results = body.messages[2]?.content ?? [];
      expect(results.map((b) => [b.type, b.tool_use_id])).toEqual([
        ['tool_result', 'call_a'],
        ['tool_result', 'call_b'],
      ]);
      expect(String(results[0]?.content)).toContain('naïve café — 日本語 🚀');
      expect(body.messages[1]?.content.filter((b) => b.type === 'tool_use').map((b) => b.input)).toEqual([
        { language: 'shell', code: TRICKY_CODE },
        { language: 'bash', code: 'echo second-$((40 + 2))' },
      ]);
      expect(body.max_tokens).toBeGreaterThan(0);
    }
  });
});
