import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CellItem, Conversation } from '@contract';
import { applyEvent, viewOf } from '../../../src-renderer/state/conversation-reducer';
import { startScriptedLlm, type ScriptedLlm, type ScriptedReply } from '../../fixtures/llm-server';
import { startAgentHarness, type AgentHarness, type HarnessOptions } from '../../support/agent-harness';

// Sub-agents (docs/agent.md#sub-agents) through full agent turns with the scripted model, over the
// official SDKs: the parent's model calls `delegate`, each sub-agent is a conversation of its own run
// by the same turn loop, and its bounded answer comes back as the call's result. Sub-agents run side
// by side, so the scripted server answers each by who is asking (the sub-agent's name in its first
// message), never by the order requests happen to arrive in.

const cellsOf = (conv: Conversation): CellItem[] => conv.items.filter((i): i is CellItem => i.kind === 'cell');
const call = (id: string, args: Record<string, unknown>) => ({ id, name: 'delegate', arguments: args });
const sh = (id: string, code: string) => ({
  kind: 'tool' as const,
  calls: [{ id, name: 'execute', arguments: { language: 'shell', code } }],
});

/**
 * Answers each sub-agent from its own script, by the name in its first message, and the parent from
 * `parent`: a shared queue would hand whoever asks first the reply meant for another.
 */
function routed(scripts: Record<string, ScriptedReply[]>): { onRequest: (r: { body: unknown }) => void; llm: { current?: ScriptedLlm } } {
  const llm: { current?: ScriptedLlm } = {};
  return {
    llm,
    onRequest: ({ body }) => {
      const text = JSON.stringify(body ?? '');
      if (!text.includes('"model"')) return;
      const name = Object.keys(scripts).find((n) => n !== 'parent' && text.includes(`You are the sub-agent \\"${n}\\"`)) ?? 'parent';
      const next = scripts[name]?.shift();
      if (next) llm.current?.enqueue(next);
    },
  };
}

/** A shell cell that runs until `file` exists in the workspace (so a stopped one re-runs at once from the export). */
const waitFor = (id: string, file: string) => sh(id, `echo waiting; while [ ! -f ${file} ]; do sleep 0.2; done`);

describe.each(['openai', 'anthropic'] as const)('sub-agents over %s', (protocol) => {
  let h: AgentHarness;
  let second: ScriptedLlm | undefined;
  afterEach(async () => {
    await h?.close();
    await second?.close();
    second = undefined;
  });

  async function start(scripts: Record<string, ScriptedReply[]>, opts: HarnessOptions = {}): Promise<string> {
    const route = routed(scripts);
    h = await startAgentHarness({ protocol, ...opts, llm: { ...opts.llm, onRequest: route.onRequest } });
    route.llm.current = h.llm;
    return h.newConversation();
  }

  it(
    'runs three at once — one failing, one stopped by the person, one on a second model server — and each result reaches the parent',
    { timeout: 180_000 },
    async () => {
      // The second provider: the other protocol, on a server of its own, set up as the person would (Settings remembers it).
      second = await startScriptedLlm();
      const other = protocol === 'openai' ? ('anthropic' as const) : ('openai' as const);
      const otherModel = other === 'anthropic' ? 'claude-haiku-4-5' : 'gpt-4o-mini';
      second.enqueue(sh('a1', 'echo alpha-was-here > alpha.txt && cat alpha.txt'), { kind: 'text', text: 'ALPHA-RESULT: wrote alpha.txt' });
      const id = await start(
        {
          parent: [
            {
              kind: 'tool',
              calls: [
                call('d1', { name: 'alpha', task: 'Write alpha.txt.', returns: 'what you wrote', write: true, provider: other }),
                call('d2', { name: 'beta', task: 'Count the files.', returns: 'the count' }),
                call('d3', { name: 'gamma', task: 'Wait for a signal.', returns: 'done' }),
              ],
            },
            { kind: 'text', text: 'All three reported.' },
          ],
          beta: [{ kind: 'error', status: 400, message: 'beta cannot go on' }],
          gamma: [waitFor('g1', 'gamma-go')],
        },
        {
          settings: {
            autoRun: true,
            // Gamma's cell waits until the person stops it: no time limit may end it first on a loaded machine.
            exec: { timeoutMs: 600_000 },
            providerModels: {
              [other]: { model: otherModel, baseUrl: other === 'anthropic' ? second.anthropicBaseUrl : second.openaiBaseUrl },
            },
          },
        },
      );
      await h.agent.send(id, 'Split the work', []);
      // Gamma runs its cell; the person stops gamma alone, with its own Stop. (Not after the others end:
      // gamma's running cell holds the workspace, so alpha's cell waits for it — cells take turns.)
      const gammaRunning = await h.waitFor('cell.running', (p) => p.code.includes('gamma-go'));
      h.agent.stop(gammaRunning.conversationId);
      await h.agent.idle(id);
      const parent = await h.agent.snapshot(id);
      writeFileSync(path.join(parent.workspace, 'gamma-go'), '');
      const delegated = cellsOf(parent);
      expect(delegated.map((c) => [c.language, c.subagent?.name, c.subagent?.status, c.status])).toEqual([
        ['agent:delegate', 'alpha', 'done', 'done'],
        ['agent:delegate', 'beta', 'failed', 'failed'],
        ['agent:delegate', 'gamma', 'stopped', 'interrupted'],
      ]);
      expect(delegated[0]?.subagent).toMatchObject({ provider: other, model: otherModel, mayWrite: true });
      // Each sub-agent is a conversation of its own, in the parent's folder, pointing back at its cell.
      const children = await Promise.all(delegated.map((c) => h.agent.snapshot(c.subagent?.conversationId ?? '')));
      for (const [i, child] of children.entries()) {
        expect(child.parent).toEqual({ conversationId: id, cellId: delegated[i]?.id, name: delegated[i]?.subagent?.name });
        expect(child.workspace).toBe(parent.workspace);
      }
      expect(readFileSync(path.join(parent.workspace, 'alpha.txt'), 'utf8')).toBe('alpha-was-here\n');
      // Alpha's calls went to the second server only, over the other protocol.
      expect(second.requests.filter((r) => r.protocol === other)).toHaveLength(2);
      expect(JSON.stringify(h.llm.requests.map((r) => r.body))).not.toContain('Write alpha.txt.\\n\\nWhen you are done');

      // The parent's next call reads the three results, and none of their intermediate outputs.
      const last = JSON.stringify(h.bodies().at(-1));
      expect(last).toContain('ALPHA-RESULT: wrote alpha.txt');
      expect(last).toContain('Sub-agent \\"beta\\" failed: The model call failed: 400');
      expect(last).toContain('beta cannot go on');
      expect(last).toContain('Sub-agent \\"gamma\\" was stopped by the person');
      expect(last).not.toContain('alpha-was-here');
      expect(h.payloads('turn.end').find((e) => e.conversationId === id)?.reason).toBe('done');
      // Each one's spending is shown beside it and counted in the parent's.
      const alphaUsage = delegated[0]?.subagent?.usage;
      expect(alphaUsage?.inputTokens).toBeGreaterThan(0);
      expect(parent.usage.inputTokens).toBeGreaterThan((alphaUsage?.inputTokens ?? 0) + (delegated[2]?.subagent?.usage.inputTokens ?? 0));
    },
  );
});

describe('sub-agents and their limits', () => {
  let h: AgentHarness;
  afterEach(async () => h?.close());

  async function start(scripts: Record<string, ScriptedReply[]>, opts: HarnessOptions): Promise<string> {
    const route = routed(scripts);
    h = await startAgentHarness({ ...opts, llm: { ...opts.llm, onRequest: route.onRequest } });
    route.llm.current = h.llm;
    return h.newConversation();
  }

  it('runs no more at once than the setting allows', async () => {
    const names = ['one', 'two', 'three', 'four'];
    const id = await start(
      {
        ...Object.fromEntries(names.map((n) => [n, [sh(`${n}1`, `echo ${n}`), { kind: 'text' as const, text: `${n} done` }]])),
        parent: [
          { kind: 'tool', calls: names.map((n, i) => call(`d${i}`, { name: n, task: `Say ${n}.`, returns: 'the word' })) },
          { kind: 'text', text: 'ok' },
        ],
      },
      { settings: { autoRun: true, subagentsAtOnce: 2 } },
    );
    const before = await h.store.get(id);
    const from = h.events.length;
    await h.send(id, 'four things');
    // Replayed from the events, in the order they happened: how many were running at each moment.
    let running = 0;
    let most = 0;
    const seen = new Map<string, string>();
    for (const event of h.events) {
      if (event.name !== 'subagent.updated') continue;
      const p = event.payload;
      const was = seen.get(p.cellId);
      if (was === p.subagent.status) continue;
      if (p.subagent.status === 'running') running++;
      else if (was === 'running') running--;
      seen.set(p.cellId, p.subagent.status);
      most = Math.max(most, running);
    }
    expect(most).toBe(2);
    expect([...seen.values()]).toEqual(['done', 'done', 'done', 'done']);

    // The window is told every change (agent/conversation-changes.ts): the parent's events, folded in
    // the renderer's reducer, are the saved parent (the estimate's notice included); each sub-agent's
    // model choice and task were sent as they were made.
    const parent = await h.store.get(id);
    const folded = h.events.slice(from).reduce((view, event) => applyEvent(view, event), viewOf(structuredClone(before)));
    expect(folded.conv).toEqual(parent);
    for (const cell of cellsOf(parent)) {
      const childId = cell.subagent?.conversationId ?? '';
      const child = await h.store.get(childId);
      const changed = h.payloads('conversation.changed').filter((p) => p.conversationId === childId);
      expect(changed.map((p) => p.change.modelChoice).find(Boolean)).toEqual(child.modelChoice);
      const first = h.payloads('item.added').find((p) => p.conversationId === childId)?.item;
      expect(first).toEqual(child.items[0]);
    }
  });

  it('shows the estimate before any starts, and stops them all once the budget is spent', async () => {
    // Every call reports 100,000 tokens in and 10,000 out: $0.35 each at gpt-4o's prices.
    const id = await start(
      {
        parent: [
          {
            kind: 'tool',
            calls: [
              call('d1', { name: 'slow', task: 'Wait.', returns: 'nothing' }),
              call('d2', { name: 'slower', task: 'Wait.', returns: 'nothing' }),
            ],
          },
        ],
        slow: [waitFor('s1', 'go')],
        slower: [waitFor('t1', 'go')],
      },
      { settings: { autoRun: true, budgetUsd: 0.8 }, llm: { usage: { input: 100_000, output: 10_000 } } },
    );
    await h.send(id, 'two slow things');
    const estimate = h.events.findIndex((e) => e.name === 'subagent.estimate');
    const firstChild = h.events.findIndex((e) => e.name === 'turn.start' && e.payload.conversationId !== id);
    expect(estimate).toBeGreaterThan(-1);
    expect(estimate).toBeLessThan(firstChild);
    const shown = h.payloads('subagent.estimate')[0];
    expect(shown?.subagents.map((s) => s.name)).toEqual(['slow', 'slower']);
    expect(shown?.totalUsd).toBeCloseTo((shown?.subagents[0]?.estimateUsd ?? 0) * 2, 6);
    expect(shown?.budgetLeftUsd).toBeCloseTo(0.45, 6);

    const parent = await h.agent.snapshot(id);
    writeFileSync(path.join(parent.workspace, 'go'), '');
    expect(parent.items.some((i) => i.kind === 'notice' && /Starting 2 sub-agents .*Estimated total: up to \$/.test(i.text))).toBe(true);
    expect(cellsOf(parent).map((c) => c.subagent?.status)).toEqual(['budget', 'budget']);
    expect(cellsOf(parent).every((c) => c.resultForModel?.includes('was stopped'))).toBe(true);
    // The parent made one call, each sub-agent one; nothing was called after the budget was spent.
    expect(h.bodies()).toHaveLength(3);
    expect(h.payloads('turn.end').find((e) => e.conversationId === id)?.reason).toBe('budget');
    expect(parent.usage.costUsd).toBeCloseTo(1.05, 6);
  });

  it('checkpoints a sub-agent’s cells, rewinds one, and puts back what a read-only one wrote', async () => {
    const id = await start(
      {
        parent: [
          {
            kind: 'tool',
            calls: [
              call('d1', { name: 'writer', task: 'Write written.txt.', returns: 'ok', write: true }),
              call('d2', { name: 'reader', task: 'Look around.', returns: 'ok' }),
            ],
          },
          { kind: 'text', text: 'ok' },
        ],
        writer: [sh('w1', 'echo kept > written.txt'), { kind: 'text', text: 'wrote it' }],
        reader: [sh('r1', 'echo no > sneaky.txt'), { kind: 'text', text: 'read it' }],
      },
      { settings: { autoRun: true, subagentsAtOnce: 1 }, checkpoints: true },
    );
    await h.send(id, 'write and read');
    const parent = await h.agent.snapshot(id);
    const [writer, reader] = await Promise.all(cellsOf(parent).map((c) => h.agent.snapshot(c.subagent?.conversationId ?? '')));
    const written = path.join(parent.workspace, 'written.txt');
    expect(readFileSync(written, 'utf8')).toBe('kept\n');
    // The read-only one's file was put back (it never stays), and its model was told so.
    expect(existsSync(path.join(parent.workspace, 'sneaky.txt'))).toBe(false);
    expect(cellsOf(reader!)[0]?.resultForModel).toContain('so what this cell changed was put back: sneaky.txt');
    // The writer's cell has its own checkpoint, listing its own change only, and rewinds like any other.
    const cell = cellsOf(writer!)[0]!;
    expect(cell.changes?.files.map((f) => f.path)).toEqual(['written.txt']);
    const outcome = await h.agent.rewind(writer!.id, cell.id, { confirm: true, cut: false });
    expect(outcome.status).toBe('restored');
    expect(existsSync(written)).toBe(false);
  });
});
