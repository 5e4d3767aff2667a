import { describe, expect, it } from 'vitest';
import { useAgentHarness } from '../../support/use-agent-harness';

const startHarness = useAgentHarness();

type ToolMessage = { role: string; tool_call_id?: string; content: string };
const toolMessages = (body: Record<string, unknown> | undefined) =>
  ((body?.messages ?? []) as ToolMessage[]).filter((m) => m.role === 'tool');
const call = (id: string, code: string) => ({
  kind: 'tool' as const,
  calls: [{ id, name: 'execute', arguments: { language: 'shell', code } }],
});

describe('the error-feedback loop', () => {
  it('gives each failure back to the model and stops after the configured number of failed attempts', async () => {
    const h = await startHarness({ settings: { autoRun: true, maxFailedAttempts: 2 } });
    h.llm.enqueue(call('c1', "sh -c 'echo first-failure >&2; exit 3'"), call('c2', "sh -c 'echo second-failure >&2; exit 4'"), {
      kind: 'text',
      text: 'never asked',
    });
    const id = await h.newConversation();
    await h.send(id, 'do it');

    expect(h.bodies()).toHaveLength(2);
    expect(h.llm.pending()).toBe(1);
    expect(h.payloads('turn.end').at(-1)?.reason).toBe('attempts-exhausted');
    const conv = await h.agent.snapshot(id);
    expect(conv.items.filter((i) => i.kind === 'cell').map((c) => c.kind === 'cell' && c.status)).toEqual(['failed', 'failed']);
    expect(conv.items.at(-1)).toMatchObject({
      kind: 'notice',
      level: 'warning',
      text: expect.stringContaining('2 attempts in a row failed'),
    });
    const [first] = toolMessages(h.bodies()[1]);
    expect(first?.content).toContain('first-failure');
    expect(first?.content).toMatch(/exit code 3/);
  });

  it('counts a run that times out as a failed attempt', async () => {
    const h = await startHarness({ settings: { autoRun: true, maxFailedAttempts: 1, exec: { timeoutMs: 1000 } } });
    h.llm.enqueue(call('c_slow', 'sleep 30'), { kind: 'text', text: 'never asked' });
    const id = await h.newConversation();
    await h.send(id, 'wait');
    expect(h.payloads('turn.end').at(-1)?.reason).toBe('attempts-exhausted');
    expect((await h.agent.snapshot(id)).items.find((i) => i.kind === 'cell')).toMatchObject({ status: 'timeout' });
  });

  it('resets the count after a run that succeeds', async () => {
    const h = await startHarness({ settings: { autoRun: true, maxFailedAttempts: 2 } });
    h.llm.enqueue(call('c1', 'false'), call('c2', 'echo ok'), call('c3', 'false'), { kind: 'text', text: 'recovered' });
    const id = await h.newConversation();
    await h.send(id, 'go');
    expect(h.payloads('turn.end').at(-1)?.reason).toBe('done');
    expect(h.bodies()).toHaveLength(4);
  });

  it('tells the model when it gets the same error twice', async () => {
    const h = await startHarness({ settings: { autoRun: true, maxFailedAttempts: 5 } });
    const same = 'echo "ModuleNotFoundError: No module named frobnicate" >&2; false';
    h.llm.enqueue(call('c1', same), call('c2', same), { kind: 'text', text: 'I will try another way.' });
    const id = await h.newConversation();
    await h.send(id, 'import it');
    const results = toolMessages(h.bodies()[2]);
    expect(results[0]?.content).not.toContain('same error');
    expect(results[1]?.content).toContain('this is the same error as your previous attempt');
  });

  /** A turn (auto-run off) whose cell `code` waits for the person; the model then says `closing`. */
  async function awaitingApproval(code: string, closing: string) {
    const h = await startHarness();
    h.llm.enqueue(call('c1', code), { kind: 'text', text: closing });
    const id = await h.newConversation();
    await h.agent.send(id, 'go', []);
    return { h, id, waiting: await h.waitFor('cell.awaiting-approval') };
  }

  it('tells the model the user declined, runs nothing, and goes on', async () => {
    const { h, id, waiting } = await awaitingApproval('touch declined-marker', 'OK, I will not.');
    h.agent.skip(id, waiting.cell.id);
    await h.agent.idle(id);

    const [result] = toolMessages(h.bodies()[1]);
    expect(result?.content).toMatch(/user declined/);
    const conv = await h.agent.snapshot(id);
    expect(conv.items.find((i) => i.kind === 'cell')).toMatchObject({ status: 'skipped', approval: 'declined' });
    expect(h.payloads('turn.end').at(-1)?.reason).toBe('done');
  });

  it('runs edited code when the user approves an edit', async () => {
    const { h, id, waiting } = await awaitingApproval('echo original', 'ran');
    h.agent.approve(id, waiting.cell.id, 'echo edited-by-user', false);
    await h.agent.idle(id);
    const [result] = toolMessages(h.bodies()[1]);
    expect(result?.content).toContain('edited-by-user');
    expect((await h.agent.snapshot(id)).items.find((i) => i.kind === 'cell')).toMatchObject({
      code: 'echo edited-by-user',
      approval: 'user',
    });
  });
});

describe('the user writing while the agent works', () => {
  it('takes a message sent during a run into account at the next model call', async () => {
    const h = await startHarness({ settings: { autoRun: true } });
    h.llm.enqueue(call('c1', 'sleep 1; echo slow-done'), { kind: 'text', text: 'Switching to what you want.' });
    const id = await h.newConversation();
    await h.agent.send(id, 'do the slow thing', []);
    await h.waitFor('cell.running');
    await h.agent.send(id, "that's not what I wanted", []);
    await h.agent.idle(id);

    const second = h.bodies()[1] as { messages: Array<{ role: string; content: unknown }> };
    expect(second.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
    expect(second.messages.at(-1)?.content).toBe("that's not what I wanted");
    expect(h.payloads('turn.end')).toHaveLength(1);
  });

  it('declines a cell waiting for approval when the user answers with a message instead', async () => {
    const h = await startHarness({ protocol: 'anthropic' });
    h.llm.enqueue(call('toolu_wait', 'echo never'), { kind: 'text', text: 'Understood.' });
    const id = await h.newConversation();
    await h.agent.send(id, 'go', []);
    await h.waitFor('cell.awaiting-approval');
    await h.agent.send(id, 'no, use python instead', []);
    await h.agent.idle(id);

    // One user message carries the declined tool's result first, then the user's words (Anthropic's rule).
    const second = h.bodies()[1] as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
    expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(second.messages[2]?.content.map((b) => b.type)).toEqual(['tool_result', 'text']);
    expect(second.messages[2]?.content[1]).toMatchObject({ text: 'no, use python instead' });
  });
});
