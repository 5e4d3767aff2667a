import { describe, expect, it } from 'vitest';
import { useAgentHarness } from '../../support/use-agent-harness';

const startHarness = useAgentHarness();

type Message = { role: string; content: unknown; tool_call_id?: string; tool_calls?: Array<{ id: string }> };
const messagesOf = (body: Record<string, unknown> | undefined) => (body?.messages ?? []) as Message[];
const bigOutput = (id: string) => ({
  kind: 'tool' as const,
  calls: [{ id, name: 'execute', arguments: { language: 'shell', code: 'seq 100000 101400' } }],
});

/** Every tool result answers a call in the assistant message just before it. */
function expectPairedToolResults(messages: Message[]): void {
  let open = new Set<string>();
  for (const m of messages) {
    if (m.role === 'assistant') open = new Set((m.tool_calls ?? []).map((c) => c.id));
    if (m.role === 'tool') expect(open.has(m.tool_call_id ?? '')).toBe(true);
  }
}

describe('fitting history into a small context window', () => {
  it('shortens long outputs first and tells the user once', async () => {
    const h = await startHarness({ settings: { autoRun: true, contextWindow: 6000, maxOutputTokens: 200 } });
    h.llm.enqueue(
      bigOutput('c1'),
      { kind: 'text', text: 'one' },
      bigOutput('c2'),
      { kind: 'text', text: 'two' },
      { kind: 'text', text: 'three' },
    );
    const id = await h.newConversation();
    await h.send(id, 'first');
    await h.send(id, 'second');
    await h.send(id, 'third');

    const last = messagesOf(h.bodies().at(-1));
    expect(last[0]?.role).toBe('system');
    expect(last.at(-1)).toMatchObject({ role: 'user', content: 'third' });
    expect(last.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['first', 'second', 'third']);
    expect(JSON.stringify(last)).toContain('left out to fit the context window');
    expectPairedToolResults(last);

    const conv = await h.agent.snapshot(id);
    // The fitting's notices: a loaded machine may add a retry notice of its own (the scripted server's
    // connection dropped once in a rehearsal under two busy loops), which is not this test's subject.
    const notices = conv.items.filter((i) => i.kind === 'notice' && /context window/.test(i.text));
    expect(notices, JSON.stringify(notices.map((n) => n.kind === 'notice' && n.text))).toHaveLength(1);
    expect(notices[0]).toMatchObject({ text: expect.stringMatching(/6,000-token context window: .*shortened/) });
    // The conversation itself keeps every output whole.
    const cell = conv.items.find((i) => i.kind === 'cell');
    expect(cell?.kind === 'cell' && cell.resultForModel).toContain('101400');
    expect(cell?.kind === 'cell' && cell.resultForModel).not.toContain('left out');
  });

  it('drops the oldest turns when shortening is not enough, never the system prompt or the newest turn', async () => {
    const h = await startHarness({ settings: { autoRun: true, contextWindow: 2400, maxOutputTokens: 100 } });
    for (let i = 1; i <= 3; i++) h.llm.enqueue(bigOutput(`c${i}`), { kind: 'text', text: `answer ${i}` });
    h.llm.enqueue({ kind: 'text', text: 'answer 4' });
    const id = await h.newConversation();
    for (const text of ['first', 'second', 'third', 'fourth']) await h.send(id, text);

    const last = messagesOf(h.bodies().at(-1));
    expect(last[0]?.role).toBe('system');
    expect(String(last[0]?.content)).toMatch(/oldest exchange\(s\) of this conversation were left out/);
    const users = last.filter((m) => m.role === 'user').map((m) => m.content);
    expect(users).not.toContain('first');
    expect(users.at(-1)).toBe('fourth');
    expectPairedToolResults(last);
    // The first message after the system prompt starts a turn: no orphaned tool results.
    expect(last[1]?.role).toBe('user');

    const notices = (await h.agent.snapshot(id)).items.filter((i) => i.kind === 'notice').map((n) => n.kind === 'notice' && n.text);
    expect(notices.some((t) => t && /oldest exchange.* left out/.test(t))).toBe(true);
    // The notice says how much was cut, in tokens, and the cut is real (more than the window holds).
    const amounts = notices.map((t) => t && /about ([\d,]+) of ([\d,]+) tokens/.exec(t)).filter((m) => m) as RegExpExecArray[];
    expect(amounts.length).toBeGreaterThan(0);
    const [cut, whole] = [Number(amounts.at(-1)?.[1]?.replace(/,/g, '')), Number(amounts.at(-1)?.[2]?.replace(/,/g, ''))];
    expect(cut).toBeGreaterThan(0);
    expect(whole).toBeGreaterThan(2400);
    expect(cut).toBeLessThan(whole);
    const usage = h.payloads('usage.updated').at(-1);
    expect(usage?.contextWindow).toBe(2400);
    expect(usage?.contextTokens).toBeLessThanOrEqual(2400);
  });
});
