import type { AnyEvent } from '@contract';
import { describe, expect, it } from 'vitest';
import { thinkingSignature } from '../../fixtures/llm-server';
import type { AgentHarness } from '../../support/agent-harness';
import { useAgentHarness } from '../../support/use-agent-harness';

// Extended thinking end to end in main: settings → the request the official Anthropic SDK sends to the
// scripted server → streamed thinking as events → the stored item → the next request. Reasoning effort
// likewise through the official OpenAI SDK.

const startHarness = useAgentHarness();

interface AnthropicBody {
  max_tokens: number;
  thinking?: { type: string; budget_tokens: number };
  temperature?: number;
  messages: Array<{ role: string; content: Array<Record<string, unknown>> }>;
}

/** The thinking text the harness's turns streamed, in order. */
const streamedThinking = (harness: AgentHarness | null) =>
  harness
    ?.payloads('assistant.thinking-delta')
    .map((d) => d.text)
    .join('');
const bodyAt = (harness: AgentHarness, n: number) => harness.bodies()[n] as unknown as AnthropicBody;

describe('Anthropic extended thinking from the settings', () => {
  it('asks for thinking with the budget, max_tokens above it and no temperature; nothing when off', async () => {
    const h = await startHarness({ protocol: 'anthropic', settings: { temperature: 0.3, thinkingBudgetTokens: 2048 } });
    h.llm.enqueue({ kind: 'text', thinking: 'Short.', text: 'Hi.' }, { kind: 'text', text: 'Hi again.' });
    const id = await h.newConversation();
    await h.send(id, 'hello');

    const on = bodyAt(h, 0);
    expect(on.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(on.max_tokens).toBeGreaterThan(2048);
    // claude-sonnet-4-6 may write 64,000 tokens: the budget on top of the usual 8,192 for the answer.
    expect(on.max_tokens).toBe(2048 + 8192);
    expect(on).not.toHaveProperty('temperature');
    expect(on).not.toHaveProperty('top_k');

    h.settings.update({ thinkingBudgetTokens: null });
    await h.send(id, 'and now?');
    const off = bodyAt(h, 1);
    expect(off).not.toHaveProperty('thinking');
    expect(off.temperature).toBe(0.3);
    expect(off.max_tokens).toBe(8192);
  });

  it('keeps max_tokens within Max output when the user set it', async () => {
    const h = await startHarness({ protocol: 'anthropic', settings: { maxOutputTokens: 6000, thinkingBudgetTokens: 4000 } });
    h.llm.enqueue({ kind: 'text', text: 'ok' });
    const id = await h.newConversation();
    await h.send(id, 'hello');
    expect(bodyAt(h, 0)).toMatchObject({ max_tokens: 6000, thinking: { type: 'enabled', budget_tokens: 4000 } });
  });

  it('streams thinking as events in order, then keeps the signed block and sends it back with the tool call', async () => {
    const h = await startHarness({ protocol: 'anthropic', settings: { autoRun: true, thinkingBudgetTokens: 1024 }, llm: { chunkSize: 3 } });
    const thought = 'The user wants the year; `date +%Y` prints it. 考える — then answer.';
    h.llm.enqueue(
      {
        kind: 'tool',
        thinking: thought,
        redactedThinking: 'opaque-redacted==',
        calls: [{ id: 'toolu_year', name: 'execute', arguments: { language: 'shell', code: 'echo 2026' } }],
      },
      { kind: 'text', thinking: 'It printed 2026.', text: 'It is 2026.' },
    );
    const id = await h.newConversation();
    await h.send(id, 'what year is it?');

    const mine = h.events.filter((e) => (e.payload as { conversationId?: string }).conversationId === id);
    const firstAssistant = mine.find(
      (e): e is Extract<AnyEvent, { name: 'item.added' }> => e.name === 'item.added' && e.payload.item.kind === 'assistant',
    );
    const itemId = firstAssistant?.payload.item.id;
    const at = (pred: (e: AnyEvent) => boolean) => mine.findIndex(pred);
    const deltas = mine.filter(
      (e): e is Extract<AnyEvent, { name: 'assistant.thinking-delta' }> =>
        e.name === 'assistant.thinking-delta' && e.payload.itemId === itemId,
    );

    // Several deltas (3 characters each), in order, adding up to the thought; the redacted block's
    // data never appears in an event meant for display.
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.map((d) => d.payload.text).join('')).toBe(thought);
    expect(new Set(deltas.map((d) => d.payload.block))).toEqual(new Set([0]));
    expect(JSON.stringify(deltas)).not.toContain('opaque-redacted');
    const firstDelta = at((e) => e.name === 'assistant.thinking-delta');
    const lastDelta = at((e) => e === deltas.at(-1));
    const done = at((e) => e.name === 'assistant.done' && e.payload.item.id === itemId);
    const code = at((e) => e.name === 'cell.code');
    expect(at((e) => e === firstAssistant)).toBeLessThan(firstDelta);
    expect(lastDelta).toBeLessThan(done);
    expect(lastDelta).toBeLessThan(code);

    // The finished item holds the signed block where it streamed, then the redacted one.
    const doneEvent = mine[done] as Extract<AnyEvent, { name: 'assistant.done' }>;
    expect(doneEvent.payload.item.thinking).toEqual([
      { thinking: thought, signature: thinkingSignature(thought) },
      { thinking: '', signature: 'redacted:opaque-redacted==' },
    ]);
    const conv = await h.agent.snapshot(id);
    const stored = conv.items.find((i) => i.id === itemId);
    expect(stored?.kind === 'assistant' && stored.thinking).toEqual(doneEvent.payload.item.thinking);

    // The call that carries the result starts its assistant message with both blocks, unmodified.
    const second = bodyAt(h, 1);
    expect(second.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(second.messages[1]?.role).toBe('assistant');
    expect(second.messages[1]?.content.map((b) => b.type)).toEqual(['thinking', 'redacted_thinking', 'tool_use']);
    expect(second.messages[1]?.content[0]).toEqual({ type: 'thinking', thinking: thought, signature: thinkingSignature(thought) });
    expect(second.messages[1]?.content[1]).toEqual({ type: 'redacted_thinking', data: 'opaque-redacted==' });
    expect(second.messages[2]?.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_year' });

    // The answer after the run streamed its own thinking into its own item.
    const answer = conv.items.filter((i) => i.kind === 'assistant').at(-1);
    expect(answer?.kind === 'assistant' && answer.thinking).toEqual([
      { thinking: 'It printed 2026.', signature: thinkingSignature('It printed 2026.') },
    ]);
  });

  it('sends thinking to the client while the block is still being written', async () => {
    const h = await startHarness({ protocol: 'anthropic', settings: { thinkingBudgetTokens: 1024 }, llm: { chunkSize: 2 } });
    h.llm.enqueue({ kind: 'text', thinking: 'A slow thought.', text: 'Done.', pauseAfterThinking: true });
    const id = await h.newConversation();
    await h.agent.send(id, 'go', []);
    const streamed = () => streamedThinking(h);
    await expect.poll(streamed, { timeout: 15_000 }).toBe('A slow thought.');
    // Held before the signature: nothing is finished yet, and the live item holds the unsigned text.
    expect(h.payloads('assistant.done')).toEqual([]);
    const live = (await h.agent.snapshot(id)).items.find((i) => i.kind === 'assistant');
    expect(live?.kind === 'assistant' && live.thinking).toEqual([{ thinking: 'A slow thought.', signature: '' }]);

    h.llm.resume();
    await h.agent.idle(id);
    const done = h.payloads('assistant.done')[0]?.item;
    expect(done?.thinking).toEqual([{ thinking: 'A slow thought.', signature: thinkingSignature('A slow thought.') }]);
    expect(done?.text).toBe('Done.');
  });

  it('keeps thinking cut off by a dropped stream for the user but never sends the unsigned block back', async () => {
    const h = await startHarness({ protocol: 'anthropic', settings: { thinkingBudgetTokens: 1024 } });
    h.llm.enqueue({ kind: 'drop', thinking: 'Half a thought' }, { kind: 'text', text: 'Sorry, again.' });
    const id = await h.newConversation();
    await h.send(id, 'think');
    expect(streamedThinking(h)).toBe('Half a thought');
    const cut = (await h.agent.snapshot(id)).items.find((i) => i.kind === 'assistant');
    expect(cut?.kind === 'assistant' && cut.interrupted).toBe(true);
    expect(cut?.kind === 'assistant' && cut.thinking).toEqual([{ thinking: 'Half a thought', signature: '' }]);

    await h.send(id, 'try again');
    const next = bodyAt(h, 1);
    expect(JSON.stringify(next.messages)).not.toContain('Half a thought');
    expect(next.messages.map((m) => m.role)).toEqual(['user']);
  });
});

describe('OpenAI reasoning effort from the settings', () => {
  it('is sent as reasoning_effort only when set', async () => {
    const h = await startHarness({
      protocol: 'openai',
      settings: { model: 'o4-mini', reasoningEffort: 'high', thinkingBudgetTokens: 2048 },
    });
    h.llm.enqueue({ kind: 'text', text: 'one' }, { kind: 'text', text: 'two' });
    const id = await h.newConversation();
    await h.send(id, 'first');
    const first = h.bodies()[0] ?? {};
    expect(first.reasoning_effort).toBe('high');
    // Anthropic's thinking setting means nothing to OpenAI.
    expect(first).not.toHaveProperty('thinking');

    h.settings.update({ reasoningEffort: null });
    await h.send(id, 'second');
    expect(h.bodies()[1]).not.toHaveProperty('reasoning_effort');
  });

  it('is never sent to Anthropic', async () => {
    const h = await startHarness({ protocol: 'anthropic', settings: { reasoningEffort: 'low' } });
    h.llm.enqueue({ kind: 'text', text: 'ok' });
    const id = await h.newConversation();
    await h.send(id, 'hello');
    expect(h.bodies()[0]).not.toHaveProperty('reasoning_effort');
    expect(h.bodies()[0]).not.toHaveProperty('thinking');
  });
});

describe('reasoning streamed by OpenAI-compatible servers', () => {
  for (const field of ['reasoning_content', 'reasoning'] as const) {
    it(`shows \`${field}\` as thinking and never sends it back`, async () => {
      const h = await startHarness({
        protocol: 'openai',
        settings: { provider: 'openai-compatible', model: 'qwen3-local' },
        llm: { chunkSize: 4 },
      });
      const reasoning = 'The user says hi; a short greeting back is enough. 短い。';
      h.llm.enqueue({ kind: 'text', reasoning, reasoningField: field, text: 'Hello!' }, { kind: 'text', text: 'Again.' });
      const id = await h.newConversation();
      await h.send(id, 'hi');

      expect(streamedThinking(h)).toBe(reasoning);
      const item = (await h.agent.snapshot(id)).items.find((i) => i.kind === 'assistant');
      expect(item?.kind === 'assistant' && item.text).toBe('Hello!');
      expect(item?.kind === 'assistant' && item.thinking).toEqual([{ thinking: reasoning, signature: '' }]);

      await h.send(id, 'again');
      const next = JSON.stringify(h.bodies()[1]);
      expect(next).toContain('Hello!');
      expect(next).not.toContain('short greeting');
    });
  }
});
