import { describe, expect, it } from 'vitest';
import { applyEvent, viewOf } from '../../../src-renderer/state/conversation-reducer';
import { useAgentHarness } from '../../support/use-agent-harness';

// The window never reads a conversation while a turn changes it: it folds main's events into the copy
// it loaded (src-renderer/state/conversation-reducer.ts). Every change main makes must therefore come
// with its event (src-main/core/agent/conversation-changes.ts); here the fold of a real turn — a first
// message (title, model choice), streamed text, a cell that runs, a last answer — is the saved file.

const startHarness = useAgentHarness();

describe.each(['openai', 'anthropic'] as const)('the renderer folding a turn over %s', (protocol) => {
  it('ends with the conversation main saved: items, title, model choice, usage and last activity', async () => {
    const h = await startHarness({ protocol, settings: { autoRun: true }, llm: { chunkSize: 4, usage: { input: 50, output: 9 } } });
    h.llm.enqueue(
      {
        kind: 'tool',
        text: 'Let me look.',
        calls: [{ id: 'call_f', name: 'execute', arguments: { language: 'shell', code: 'echo folded-$((6 * 7))' } }],
      },
      { kind: 'text', text: 'It printed folded-42.' },
    );
    const id = await h.newConversation();
    let view = viewOf(structuredClone(await h.store.get(id)));
    const from = h.events.length;
    await h.send(id, 'fold this turn');
    for (const event of h.events.slice(from)) view = applyEvent(view, event);

    const saved = await h.store.get(id);
    expect(saved.title).toBe('fold this turn');
    expect(saved.modelChoice?.provider).toBe(protocol);
    expect(saved.items.map((i) => i.kind)).toEqual(['user', 'assistant', 'cell', 'assistant']);
    expect(JSON.stringify(saved.items)).toContain('folded-42');
    expect(view.conv).toEqual(saved);
    expect(view.busy).toBe(false);
  });
});
