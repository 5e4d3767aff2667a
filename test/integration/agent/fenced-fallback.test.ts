import { describe, expect, it } from 'vitest';
import { useAgentHarness } from '../../support/use-agent-harness';

const startHarness = useAgentHarness();

interface OpenAiBody {
  messages: Array<{ role: string; content: string | null; tool_calls?: unknown[] }>;
  tools?: unknown[];
}

const REPLY = 'I will check.\n```shell\necho "fenced $((2 + 3))"\n```\nThat should print 5.\n```text\nnot run\n```\n';

describe('fenced code blocks instead of tool calls', () => {
  it.each(['openai', 'anthropic'] as const)(
    'with tool calling off (%s), runs fenced blocks and returns their output as a user message',
    async (protocol) => {
      const h = await startHarness({ protocol, settings: { toolCalling: 'off', autoRun: true }, llm: { chunkSize: 1 } });
      h.llm.enqueue({ kind: 'text', text: REPLY }, { kind: 'text', text: 'It printed 5.' });
      const id = await h.newConversation();
      await h.send(id, 'add two and three');

      const conv = await h.agent.snapshot(id);
      expect(conv.items.map((i) => i.kind)).toEqual(['user', 'assistant', 'cell', 'assistant', 'assistant']);
      const cell = conv.items[2];
      expect(cell).toMatchObject({ kind: 'cell', toolCallId: null, language: 'shell', code: 'echo "fenced $((2 + 3))"', status: 'done' });
      expect(conv.items[1]).toMatchObject({ text: 'I will check.\n' });
      // Prose and non-runnable blocks stay in the message.
      expect(conv.items[3]).toMatchObject({ text: 'That should print 5.\n```text\nnot run\n```\n' });

      const bodies = h.bodies();
      expect(bodies.every((b) => b.tools === undefined)).toBe(true);
      const second = JSON.stringify(bodies[1]);
      expect(second).toContain('Output of the shell block:\\nfenced 5');
      expect(second).toContain('```shell\\necho \\"fenced $((2 + 3))\\"\\n```');
      expect(String((bodies[0] as { system?: string }).system ?? JSON.stringify(bodies[0]))).toContain('fenced code block');
    },
  );

  it('falls back to fenced blocks when the server refuses tools, and remembers it for the model', async () => {
    // Ollama's native /api/chat (ollama-provider.ts); the server knows the model, which refuses tools.
    const h = await startHarness({ settings: { provider: 'ollama', model: 'tiny-model', autoRun: true }, llm: { models: ['tiny-model'] } });
    h.settings.update({ baseUrl: h.llm.openaiBaseUrl });
    h.llm.enqueue(
      { kind: 'error', status: 400, message: 'registry.ollama.ai/library/tiny-model:latest does not support tools' },
      { kind: 'text', text: '```bash\necho fallback-ok\n```' },
      { kind: 'text', text: 'Printed it.' },
      { kind: 'text', text: 'Hello again.' },
    );
    const id = await h.newConversation();
    await h.send(id, 'print something');
    await h.send(id, 'hello');

    const bodies = h.bodies() as unknown as OpenAiBody[];
    expect(bodies.map((b) => b.tools !== undefined)).toEqual([true, false, false, false]);
    const conv = await h.agent.snapshot(id);
    expect(conv.items.find((i) => i.kind === 'notice')).toMatchObject({
      text: expect.stringContaining('does not accept tool definitions'),
    });
    expect(conv.items.find((i) => i.kind === 'cell')).toMatchObject({ status: 'done', toolCallId: null });
    expect(bodies[2]?.messages.at(-1)).toMatchObject({ role: 'user', content: expect.stringContaining('fallback-ok') });
    expect(h.sleeps).toEqual([]);
  });
});

describe('malformed tool calls', () => {
  it('sends invalid JSON arguments back to the model as an error and lets it try again', async () => {
    // Three malformed calls in a row count as three failed attempts; allow a fourth.
    const h = await startHarness({ settings: { autoRun: true, maxFailedAttempts: 4 } });
    h.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_bad', name: 'execute', arguments: '{"language": "shell", "code": "echo hi' }] },
      { kind: 'tool', calls: [{ id: 'call_nolang', name: 'execute', arguments: { code: 'echo hi' } }] },
      { kind: 'tool', calls: [{ id: 'call_other', name: 'browse', arguments: { url: 'x' } }] },
      { kind: 'tool', calls: [{ id: 'call_good', name: 'execute', arguments: { language: 'shell', code: 'echo fixed' } }] },
      { kind: 'text', text: 'Fixed.' },
    );
    const id = await h.newConversation();
    await h.send(id, 'say hi');

    expect(h.payloads('turn.end').at(-1)?.reason).toBe('done');
    const tools = (
      h.bodies().at(-1) as unknown as { messages: Array<{ role: string; tool_call_id?: string; content: string }> }
    ).messages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.tool_call_id)).toEqual(['call_bad', 'call_nolang', 'call_other', 'call_good']);
    expect(tools[0]?.content).toMatch(/^Error: the tool arguments are not valid JSON/);
    expect(tools[1]?.content).toMatch(/lack "language"/);
    expect(tools[2]?.content).toMatch(/no tool called "browse"/);
    expect(tools[3]?.content).toContain('fixed');
  });
});
