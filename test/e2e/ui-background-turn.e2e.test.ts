import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { currentConversation, sendMessage } from '../support/ui-harness';

// Browser mode (docs/ui.md#background-turns): a turn is the server's, not the page's. It goes on with
// the page closed, and its result is there when the page opens again; it goes on while the person looks
// at another conversation. (The browser's notification: ui-browser-notification.e2e.test.ts, in the full
// Chromium; the headless shell shared here answers "denied" whatever the context grants.)
// The cells wait for a file the test writes, so "mid-turn" is a state, never a moment.

const waitFor = (file: string) => ({
  kind: 'tool' as const,
  calls: [
    {
      id: file,
      name: 'execute',
      arguments: { language: 'shell', code: `touch ${file}.started; while [ ! -e ${file} ]; do sleep 0.1; done; echo "fin"ished` },
    },
  ],
});

describe('background turns in browser mode', () => {
  const ui = useUiApp({ settings: { autoRun: true } }, { start: 'once', newConversation: true });

  const page0Title = () => ui.page.getByTestId('conversation-list').locator('.conv-row').first();

  it('a turn finishes with its page closed and while another conversation is shown; its result is there on return', async () => {
    ui.aut.llm.enqueue(waitFor('go1'), { kind: 'text', text: 'Finished while you were away.' });
    await sendMessage(ui.page, 'Count the files, slowly');
    await expectText(page0Title(), 'Count the files, slowly');
    const { id, workspace } = await currentConversation(ui.aut);
    await expect.poll(() => existsSync(path.join(workspace, 'go1.started')), { timeout: 60_000 }).toBe(true);
    await ui.page.close();
    writeFileSync(path.join(workspace, 'go1'), '');
    const conv = () => ui.aut.app.handlers['conversation.get']({ conversationId: id }, { transport: 'websocket' });
    await expect
      .poll(async () => (await conv()).items.some((i) => i.kind === 'assistant' && i.text === 'Finished while you were away.'), {
        timeout: 60_000,
      })
      .toBe(true);

    await ui.open();
    const page = ui.page;
    const row = page.getByTestId('conversation-list').locator('.conv-row').filter({ hasText: 'Count the files' });
    await row.click();
    await expectText(page.getByTestId('assistant-message').last(), 'Finished while you were away.');

    // Another turn of the same conversation; the person moves to a new one while it runs, and back.
    ui.aut.llm.enqueue(waitFor('go2'), { kind: 'text', text: 'The second count is done.' });
    await sendMessage(page, 'Count them again');
    await expect.poll(() => existsSync(path.join(workspace, 'go2.started')), { timeout: 60_000 }).toBe(true);
    await page.getByRole('button', { name: 'New conversation' }).click();
    writeFileSync(path.join(workspace, 'go2'), '');
    await expect
      .poll(async () => (await conv()).items.some((i) => i.kind === 'assistant' && i.text === 'The second count is done.'), {
        timeout: 60_000,
      })
      .toBe(true);
    await row.click();
    await expectText(page.getByTestId('assistant-message').last(), 'The second count is done.');
  }, 180_000);
});
