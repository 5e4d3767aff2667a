import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useAgentHarness } from '../../support/use-agent-harness';

const startHarness = useAgentHarness();

describe.each(['openai', 'anthropic'] as const)('calls to %s that fail', (protocol) => {
  it('waits as long as retry-after says on a 429, then succeeds', async () => {
    const h = await startHarness({ protocol });
    h.llm.enqueue(
      { kind: 'error', status: 429, message: 'slow down', headers: { 'retry-after': '7' } },
      { kind: 'text', text: 'hello after the wait' },
    );
    const id = await h.newConversation();
    await h.send(id, 'hi');
    expect(h.sleeps).toEqual([7000]);
    expect(h.payloads('turn.end').at(-1)?.reason).toBe('done');
    const conv = await h.agent.snapshot(id);
    expect(conv.items.at(-1)).toMatchObject({ kind: 'assistant', text: 'hello after the wait', interrupted: false });
    expect(conv.items.find((i) => i.kind === 'notice')).toMatchObject({ level: 'info', text: expect.stringMatching(/rate-limiting.*7 s/) });
  });

  it('retries 500 twice with growing backoff, then succeeds', async () => {
    const h = await startHarness({ protocol });
    h.llm.enqueue(
      { kind: 'error', status: 500, message: 'boom' },
      { kind: 'error', status: 500, message: 'boom again' },
      { kind: 'text', text: 'third time lucky' },
    );
    const id = await h.newConversation();
    await h.send(id, 'hi');
    expect(h.sleeps).toHaveLength(2);
    expect(h.sleeps[1]).toBeGreaterThan(h.sleeps[0] ?? Infinity);
    expect(h.bodies()).toHaveLength(3);
    expect((await h.agent.snapshot(id)).items.at(-1)).toMatchObject({ kind: 'assistant', text: 'third time lucky' });
  });

  it('retries a connection dropped before the first token', async () => {
    const h = await startHarness({ protocol });
    h.llm.enqueue({ kind: 'drop' }, { kind: 'text', text: 'reconnected' });
    const id = await h.newConversation();
    await h.send(id, 'hi');
    expect(h.sleeps).toHaveLength(1);
    expect((await h.agent.snapshot(id)).items.at(-1)).toMatchObject({ kind: 'assistant', text: 'reconnected' });
  });

  it('stops with a clear notice when the errors outlast the retries', async () => {
    const h = await startHarness({ protocol });
    for (let i = 0; i < 4; i++) h.llm.enqueue({ kind: 'error', status: 503, message: 'overloaded' });
    const id = await h.newConversation();
    await h.send(id, 'hi');
    expect(h.bodies()).toHaveLength(4);
    expect(h.payloads('turn.end').at(-1)?.reason).toBe('error');
    const notice = (await h.agent.snapshot(id)).items.at(-1);
    expect(notice).toMatchObject({
      kind: 'notice',
      level: 'error',
      text: expect.stringMatching(/kept failing with 503.*try again later/i),
    });
  });

  it('does not retry a refused key, and says where to fix it', async () => {
    const h = await startHarness({ protocol });
    h.llm.enqueue({ kind: 'error', status: 401, message: 'invalid x-api-key' });
    const id = await h.newConversation();
    await h.send(id, 'hi');
    expect(h.bodies()).toHaveLength(1);
    expect((await h.agent.snapshot(id)).items.at(-1)).toMatchObject({
      kind: 'notice',
      text: expect.stringMatching(/refused the key.*Settings → API keys/),
    });
  });

  it('keeps the partial text of a stream cut midway, marks it interrupted, and never replays a tool call that ran', async () => {
    const h = await startHarness({ protocol, settings: { autoRun: true } });
    h.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_once', name: 'execute', arguments: { language: 'shell', code: 'echo ran >> runs.txt' } }] },
      { kind: 'drop', text: 'The file now has one line, and next I wi' },
      { kind: 'text', text: 'Done: one line.' },
    );
    const id = await h.newConversation();
    await h.send(id, 'append a line');

    expect(h.payloads('turn.end').at(-1)?.reason).toBe('error');
    expect(h.sleeps).toEqual([]);
    let conv = await h.agent.snapshot(id);
    expect(conv.items.filter((i) => i.kind === 'assistant').at(-1)).toMatchObject({
      text: 'The file now has one line, and next I wi',
      interrupted: true,
    });
    expect(conv.items.at(-1)).toMatchObject({ kind: 'notice', level: 'error' });

    await h.send(id, 'go on');
    conv = await h.agent.snapshot(id);
    expect(readFileSync(path.join(conv.workspace, 'runs.txt'), 'utf8')).toBe('ran\n');
    expect(conv.items.filter((i) => i.kind === 'cell')).toHaveLength(1);
    // The model sees the cut-off text as its own earlier words, and the one run with its result.
    const last = JSON.stringify(h.bodies().at(-1));
    expect(last).toContain('The file now has one line, and next I wi');
    expect(last.match(/call_once/g)).toHaveLength(2);

    // The file on disk is the same consistent history.
    const saved = await h.store.get(id);
    expect(saved.items.map((i) => i.kind)).toEqual(conv.items.map((i) => i.kind));
  });
});
