import { describe, expect, it } from 'vitest';
import { useAgentHarness } from '../../support/use-agent-harness';

const startHarness = useAgentHarness();

const call = (id: string, code: string) => ({
  kind: 'tool' as const,
  calls: [{ id, name: 'execute', arguments: { language: 'shell', code } }],
});

describe('stopping a turn', () => {
  it('cancels a model call that is still streaming and keeps what arrived', async () => {
    let asked = () => {};
    const modelAsked = new Promise<void>((resolve) => (asked = resolve));
    const h = await startHarness({ llm: { onRequest: (r) => r.method === 'POST' && asked() } });
    h.llm.enqueue({ kind: 'hang' });
    const id = await h.newConversation();
    await h.agent.send(id, 'think forever', []);
    await modelAsked;
    h.agent.stop(id);
    await h.agent.idle(id);
    expect(h.payloads('turn.end').at(-1)?.reason).toBe('stopped');
    expect(h.sleeps).toEqual([]);
    const saved = await h.store.get(id);
    expect(saved.items.map((i) => i.kind)).toEqual(['user']);
  });

  it('interrupts a running cell and leaves a history the model can continue from', async () => {
    const h = await startHarness({ settings: { autoRun: true } });
    h.llm.enqueue(call('c_sleep', 'echo started; sleep 30; echo never'), { kind: 'text', text: 'I see you stopped it.' });
    const id = await h.newConversation();
    await h.agent.send(id, 'wait a while', []);
    await h.waitFor('cell.terminal', (e) => e.data.includes('started'));
    h.agent.stop(id);
    await h.agent.idle(id);

    expect(h.payloads('turn.end').at(-1)?.reason).toBe('stopped');
    const saved = await h.store.get(id);
    const cell = saved.items.find((i) => i.kind === 'cell');
    expect(cell).toMatchObject({ status: 'interrupted', toolCallId: 'c_sleep' });
    expect(cell?.kind === 'cell' && cell.resultForModel).toMatch(/interrupted/i);

    await h.send(id, 'what happened?');
    const next = h.bodies().at(-1) as { messages: Array<{ role: string; tool_call_id?: string; content: unknown }> };
    expect(next.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
    expect(next.messages[3]?.tool_call_id).toBe('c_sleep');
  });

  it('stops while waiting for approval: the cell is skipped and the model is not called again', async () => {
    const h = await startHarness();
    h.llm.enqueue(call('c1', 'echo hi'));
    const id = await h.newConversation();
    await h.agent.send(id, 'go', []);
    await h.waitFor('cell.awaiting-approval');
    h.agent.stop(id);
    await h.agent.idle(id);
    expect(h.bodies()).toHaveLength(1);
    expect((await h.store.get(id)).items.find((i) => i.kind === 'cell')).toMatchObject({ status: 'skipped' });
  });
});

describe('the budget', () => {
  it('stops before the next model call once the conversation has spent its budget', async () => {
    // gpt-4o at $2.50 / $10 per million tokens: 100k in + 10k out is $0.35 per call.
    const h = await startHarness({ settings: { autoRun: true, budgetUsd: 0.5 }, llm: { usage: { input: 100_000, output: 10_000 } } });
    h.llm.enqueue(call('c1', 'echo one'), call('c2', 'echo two'), { kind: 'text', text: 'never reached' });
    const id = await h.newConversation();
    await h.send(id, 'spend');

    expect(h.bodies()).toHaveLength(2);
    const end = h.payloads('turn.end').at(-1);
    expect(end?.reason).toBe('budget');
    expect(end?.usage.costUsd).toBeCloseTo(0.7, 6);
    const conv = await h.agent.snapshot(id);
    expect(conv.items.at(-1)).toMatchObject({ kind: 'notice', text: expect.stringMatching(/\$0\.7000 of its \$0\.50 budget/) });
    expect(h.payloads('usage.updated').at(-1)?.usage.costUsd).toBeCloseTo(0.7, 6);

    // A new message does not call the model while the budget is spent.
    await h.send(id, 'more');
    expect(h.bodies()).toHaveLength(2);
    expect(h.payloads('turn.end').at(-1)?.reason).toBe('budget');
  });
});
