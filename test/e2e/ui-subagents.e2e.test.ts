import { afterAll, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm, type ScriptedReply } from '../fixtures/llm-server';
import { expectAttribute, expectText } from '../support/page-expect';
import { subagentRoute } from '../support/subagent-route';
import { useUiApp } from '../support/ui-fixture';
import { newConversation, sendMessage, shot } from '../support/ui-harness';

// Sub-agents in the window (docs/ui.md#sub-agents): each one's conversation shown live as a thread
// nested under the parent's `delegate` call, collapsible, with its own Stop (stopping it alone: the
// parent reads it as stopped and goes on), its tokens and cost beside its estimate, and "Open as
// conversation", after which the conversation list marks it as the parent's sub-agent; the parent's
// task list pinned above. One app and page. Sub-agents ask at once, so the scripted server answers each
// by who asks (its name in its first message), as test/integration/agent/subagents.test.ts does.

const sh = (id: string, code: string): ScriptedReply => ({
  kind: 'tool',
  calls: [{ id, name: 'execute', arguments: { language: 'shell', code } }],
});
const scripts: Record<string, ScriptedReply[]> = {
  parent: [
    { kind: 'tool', calls: [{ id: 't1', name: 'update_tasks', arguments: { action: 'add', steps: ['Count rows', 'Wait for the data'] } }] },
    {
      kind: 'tool',
      calls: [
        { id: 'd1', name: 'delegate', arguments: { name: 'quick', task: 'Count the rows.', returns: 'the count' } },
        { id: 'd2', name: 'delegate', arguments: { name: 'slow', task: 'Wait for the data.', returns: 'done' } },
      ],
    },
    { kind: 'text', text: 'Both reported back.' },
  ],
  // The slow one's cell holds the workspace until stopped (cells take turns), so the quick one's waits for it.
  slow: [sh('s1', 'echo slow-waiting; while [ ! -f never-made ]; do sleep 0.2; done')],
  quick: [sh('q1', 'echo quick-counted-42'), { kind: 'text', text: 'QUICK-RESULT: 42 rows' }],
};

describe('sub-agents in the window', () => {
  let llm: ScriptedLlm | undefined;
  const ui = useUiApp(
    async () => {
      // Every call reports 1,000 tokens in and 100 out: $0.0035 at gpt-4o's prices, so a cost shows.
      llm = await startScriptedLlm({
        usage: { input: 1000, output: 100 },
        onRequest: subagentRoute(scripts, () => llm),
      });
      return { llm, settings: { autoRun: true, model: 'gpt-4o' } };
    },
    { start: 'once' },
  );
  afterAll(async () => llm?.close());

  it(
    'nests each sub-agent live under its call, stops one alone, shows its cost, opens it as a conversation',
    { timeout: 120_000 },
    async () => {
      const p = ui.page;
      await newConversation(p);
      await sendMessage(p, 'Count the rows, and wait for the data.');

      // The parent's task list, pinned above the conversation.
      await expectText(p.getByTestId('task-list'), 'Tasks — 0 of 2 steps done', 30_000);
      const quick = p.locator('[data-testid="subagent"][data-name="quick"]');
      const slow = p.locator('[data-testid="subagent"][data-name="slow"]');
      // Live and open while running: the slow one's task and its own cell, running, nested under its call.
      await expectText(slow.getByTestId('subagent-thread'), 'Wait for the data.', 30_000);
      await expectText(slow.locator('.cell-head'), /running/, 30_000);
      await expectAttribute(slow, 'data-status', 'running');

      await slow.getByRole('button', { name: 'Stop slow' }).click();
      await expectAttribute(slow, 'data-status', 'stopped');
      await expectText(slow.getByTestId('subagent-state'), 'stopped by you');
      await expectText(slow.locator('.cell-head'), /interrupted/);
      // The other went on once the workspace was free, and the parent finished with both results.
      await expectText(quick.getByTestId('subagent-thread'), 'quick-counted-42', 30_000);
      await expectAttribute(quick, 'data-status', 'done');
      await expectText(quick.getByTestId('subagent-thread'), 'QUICK-RESULT: 42 rows');
      await expectText(p.getByTestId('assistant-message').last(), 'Both reported back.', 30_000);
      const parentCall = JSON.stringify(llm?.requests.at(-1)?.body);
      expect(parentCall).toContain('Sub-agent \\"slow\\" was stopped by the person');
      expect(parentCall).toContain('QUICK-RESULT: 42 rows');

      // Its own tokens and cost beside it: two calls of 1,100 tokens, $0.0070, against its estimate.
      await expectText(quick.getByTestId('subagent-cost'), /^2,200 tokens · \$0\.0070 of ~\$\d+\.\d+ estimated$/);
      await expectText(slow.getByTestId('subagent-cost'), /^1,100 tokens · \$0\.0035 of ~\$/);

      // Finished threads stay open until collapsed; collapsed, the header stays.
      await quick.getByRole('button', { name: /Sub-agent quick/ }).click();
      expect(await quick.getByTestId('subagent-thread').count()).toBe(0);
      await expectAttribute(quick.getByRole('button', { name: /Sub-agent quick/ }), 'aria-expanded', 'false');
      await shot(p, 'ui-subagents.png');

      await quick.getByRole('button', { name: 'Open quick as a conversation' }).click();
      await expectText(p.getByTestId('user-message').first(), 'Count the rows.');
      const row = p.getByTestId('conversation-list').locator('li', { has: p.getByTestId('conv-parent') });
      await expectText(row.first(), /↳ sub-agent (quick|slow) of /);
      expect(await p.getByTestId('conv-parent').count()).toBe(2);
    },
  );
});
