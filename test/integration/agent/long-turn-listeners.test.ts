import { afterEach, describe, expect, it } from 'vitest';
import { startAgentHarness, type AgentHarness } from '../../support/agent-harness';

// The OpenAI SDK adds an abort listener to the signal of every request and never removes it. Each
// model call (and each cell) gets a signal of its own, linked to the turn's (agent/linked-abort.ts),
// so a long turn does not pile listeners, and what they hold, on the turn's signal: before, a turn of
// more than ten steps made Node warn of a possible leak (seen in bench/soak.bench.ts).

let h: AgentHarness | null = null;
const warnings: string[] = [];
const onWarning = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
afterEach(async () => {
  process.off('warning', onWarning);
  await h?.close();
  h = null;
});

describe('a long turn', () => {
  it('leaves no listener of its model calls on the turn’s signal (no MaxListenersExceededWarning in 15 steps)', async () => {
    process.on('warning', onWarning);
    h = await startAgentHarness({ settings: { autoRun: true } });
    const steps = Array.from({ length: 14 }, (_, i) => ({
      kind: 'tool' as const,
      calls: [{ id: `c${i}`, name: 'execute', arguments: { language: 'shell', code: `echo step-${i}` } }],
    }));
    h.llm.enqueue(...steps, { kind: 'text', text: 'Fourteen steps.' });
    const id = await h.newConversation();
    await h.send(id, 'count');
    const conv = await h.agent.snapshot(id);
    expect(conv.items.filter((i) => i.kind === 'cell' && i.status === 'done')).toHaveLength(14);
    expect(h.bodies()).toHaveLength(15);
    expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
  });
});
