import fs from 'node:fs';
import path from 'node:path';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { acpAgents } from '../support/acp-agents';
import { CLAUDE_CODE, claudeCodeSecrets, withClaudeCode } from '../support/claude-code-agent';
import { expectAttribute, expectText } from '../support/page-expect';
import { useScriptedLlms } from '../support/scripted-llm';
import { useUiApp } from '../support/ui-fixture';
import { currentConversation, sendMessage } from '../support/ui-harness';

// A real outside agent's permission requests answered by the person in the page (docs/acp.md#hosting):
// Claude Code through claude-agent-acp (installed from npm, test/support/acp-agents.ts), in our sandbox,
// against the scripted Anthropic server, chosen in the agent menu as ui-hosted-agent.e2e.test.ts chooses
// the SDK's example agent. One turn, two cards: its Write is allowed with Run (the file lands), its Bash
// command is refused with Skip (the twin: the command never runs, and Claude Code is told no).

// Registered before the app's fixture, so the server closes after the app (hooks run in reverse).
const startLlm = useScriptedLlms();

describe('Claude Code hosted in a conversation, in the page', () => {
  const ui = useUiApp(
    async () => {
      const [agents, llm] = await Promise.all([acpAgents(), startLlm()]);
      const secrets = await claudeCodeSecrets();
      // The app's own model is set up too (with a key), so the page asks nothing of the person first.
      await secrets.set('provider:openai', 'sk-test-e2e');
      return { llm, secrets, settings: withClaudeCode(agents, llm.url) };
    },
    { newConversation: true },
  );

  it('asks before its write and its command: Run lets the write land, Skip keeps the command from running', async () => {
    const { page, aut } = ui;
    const menu = page.getByRole('combobox', { name: 'Agent' });
    await menu.selectOption(CLAUDE_CODE);
    await expect.poll(() => menu.inputValue()).toBe(CLAUDE_CODE);
    const { workspace } = await currentConversation(aut);
    aut.llm.enqueue(
      {
        kind: 'tool',
        calls: [{ name: 'Write', arguments: { file_path: path.join(workspace, 'allowed.txt'), content: 'written after Run\n' } }],
      },
      { kind: 'tool', calls: [{ name: 'Bash', arguments: { command: 'echo ran > refused.txt', description: 'make refused.txt' } }] },
      { kind: 'text', text: 'all done' },
    );
    await sendMessage(page, 'write allowed.txt, then make refused.txt');

    // A tool call's cell is labelled with its kind: the write is `mcp:acp/edit`, the command `mcp:acp/execute`.
    const cell = (kind: string): Locator => page.locator(`[data-testid="cell"][aria-label^="mcp:acp/${kind} cell"]`);
    const answer = async (kind: string, button: 'Run' | 'Skip'): Promise<Locator> => {
      const card = cell(kind);
      await expectAttribute(card, 'data-status', 'awaiting-approval', 60_000);
      await card.getByRole('button', { name: button, exact: true }).click();
      return card;
    };

    const write = await answer('edit', 'Run');
    await expect.poll(() => fs.existsSync(path.join(workspace, 'allowed.txt')), { timeout: 30_000 }).toBe(true);
    expect(fs.readFileSync(path.join(workspace, 'allowed.txt'), 'utf8')).toBe('written after Run\n');
    await expectAttribute(write, 'data-status', 'done', 30_000);

    const command = await answer('execute', 'Skip');
    await expectText(page.getByTestId('chat'), 'all done', 60_000);
    await expectAttribute(command, 'data-status', 'skipped');
    // Skipped: the command never ran, and the model heard that it was refused.
    expect(fs.existsSync(path.join(workspace, 'refused.txt'))).toBe(false);
    const calls = aut.llm.requests.filter((r) => r.path === '/v1/messages');
    expect(calls).toHaveLength(3);
    const last = JSON.stringify(calls[2]?.body);
    expect(last).toContain('"is_error":true');
  });
});
