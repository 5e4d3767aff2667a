import { describe, expect, it } from 'vitest';
import { useAgentHarness } from '../../support/use-agent-harness';

const startHarness = useAgentHarness();

// Two messages arriving together (a paste split by a terminal, two windows, a fast typist): the second
// must never start a turn beside the first while the first is still being saved.

describe('messages sent while a turn is starting', () => {
  it('starts one turn; the second message joins it at its next model call', async () => {
    const h = await startHarness();
    h.llm.enqueue({ kind: 'text', text: 'Answered both.' }, { kind: 'text', text: 'Unused.' });
    const id = await h.newConversation();
    // Not awaited in turn: both are in flight at once, as two requests from a transport would be.
    await Promise.all([h.agent.send(id, 'first', []), h.agent.send(id, 'second', []), h.agent.send(id, 'third', [])]);
    await h.agent.idle(id);
    expect(h.payloads('turn.start')).toHaveLength(h.payloads('turn.end').length);
    // No two turns overlapped: every start came after the previous end.
    const order = h.events.filter((e) => e.name === 'turn.start' || e.name === 'turn.end').map((e) => e.name);
    expect(order.join(',')).toMatch(/^(turn\.start,turn\.end,?)+$/);
    const saved = await h.store.get(id);
    expect(saved.items.filter((i) => i.kind === 'user').map((i) => (i.kind === 'user' ? i.text : ''))).toEqual([
      'first',
      'second',
      'third',
    ]);
    const firstCall = (h.bodies()[0]?.messages as Array<{ role: string; content: unknown }>)
      .filter((m) => m.role === 'user')
      .map((m) => m.content);
    expect(firstCall[0]).toBe('first');
  });

  it('opens a conversation once when two requests open it together', async () => {
    const h = await startHarness();
    h.llm.enqueue({ kind: 'text', text: 'One copy.' }, { kind: 'text', text: 'Unused.' });
    const id = await h.newConversation();
    const [a, b] = await Promise.all([h.agent.open(id), h.agent.open(id)]);
    expect(a).toBe(b);
  });
});
