import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withScriptedAgent } from '../support/hosted-agent';
import { expectAttribute, expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { currentConversation, sendMessage } from '../support/ui-harness';

// Hosting an outside ACP agent from the page (docs/acp.md#hosting): the agent menu of a new conversation
// chooses the scripted agent of test/fixtures/acp, and its permission request is the approval card the
// person answers with Run.

describe('a conversation answered by an outside ACP agent, in the page', () => {
  const ui = useUiApp({ settings: withScriptedAgent() }, { newConversation: true });

  it('is chosen in the agent menu, and its permission request is answered from the approval card', async () => {
    const { page } = ui;
    const menu = page.getByRole('combobox', { name: 'Agent' });
    await menu.selectOption('scripted');
    // The menu shows the conversation's agent once main has recorded it.
    await expect.poll(() => menu.inputValue()).toBe('scripted');
    await sendMessage(page, 'write from-ui.txt made in the page');
    const cell = page.getByTestId('cell').first();
    await expectAttribute(cell, 'data-status', 'awaiting-approval', 20_000);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expectText(page.getByTestId('chat'), 'wrote from-ui.txt', 20_000);
    const { workspace } = await currentConversation(ui.aut);
    expect(fs.readFileSync(path.join(workspace, 'from-ui.txt'), 'utf8')).toBe('made in the page');
    // Chosen before the first message only.
    expect(await menu.isDisabled()).toBe(true);
  });
});
