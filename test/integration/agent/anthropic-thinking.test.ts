import { describe, expect, it } from 'vitest';
import { thinkingSignature } from '../../fixtures/llm-server';
import { useAgentHarness } from '../../support/use-agent-harness';

const startHarness = useAgentHarness();

interface AnthropicBody {
  messages: Array<{ role: string; content: Array<Record<string, unknown>> }>;
}

describe('Anthropic thinking blocks', () => {
  it('keeps thinking with its signature and sends it back first, unmodified, with the tool call', async () => {
    const h = await startHarness({ protocol: 'anthropic', settings: { autoRun: true } });
    const thought = 'The user wants the date; `date` prints it. 考える';
    h.llm.enqueue(
      {
        kind: 'tool',
        thinking: thought,
        calls: [{ id: 'toolu_date', name: 'execute', arguments: { language: 'shell', code: 'echo 2026' } }],
      },
      { kind: 'text', thinking: 'It printed 2026.', text: 'It is 2026.' },
      { kind: 'text', text: 'You are welcome.' },
    );
    const id = await h.newConversation();
    await h.send(id, 'what year is it?');
    await h.send(id, 'thanks');

    const conv = await h.agent.snapshot(id);
    const assistants = conv.items.filter((i) => i.kind === 'assistant');
    expect(assistants[0]?.kind === 'assistant' && assistants[0].thinking).toEqual([
      { thinking: thought, signature: thinkingSignature(thought) },
    ]);

    const second = h.bodies()[1] as unknown as AnthropicBody;
    expect(second.messages[1]?.role).toBe('assistant');
    expect(second.messages[1]?.content.map((b) => b.type)).toEqual(['thinking', 'tool_use']);
    expect(second.messages[1]?.content[0]).toEqual({ type: 'thinking', thinking: thought, signature: thinkingSignature(thought) });

    // A later turn still carries every earlier thinking block in place.
    const third = h.bodies()[2] as unknown as AnthropicBody;
    expect(third.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(third.messages[3]?.content[0]).toEqual({
      type: 'thinking',
      thinking: 'It printed 2026.',
      signature: thinkingSignature('It printed 2026.'),
    });
  });
});
