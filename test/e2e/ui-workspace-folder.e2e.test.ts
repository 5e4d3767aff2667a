import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser';
import { expectText } from '../support/page-expect';
import { newConversation, openApp, sendMessage, SHOTS, startUiApp, type UiApp } from './ui-harness';

describe('the conversation’s folder: choosing another one, deleting the app’s one with the conversation', () => {
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let browser: Browser;
  let aut: UiApp;
  let page: Page;
  let chosen: string;

  beforeAll(async () => {
    chromium = await launchChromium();
    browser = chromium.browser;
  });
  afterAll(async () => chromium?.close());
  beforeEach(async () => {
    chosen = mkdtempSync(path.join(os.tmpdir(), 'oi-ui-chosen-'));
    aut = await startUiApp({ settings: { autoRun: true } });
    ({ page } = await openApp(browser, aut));
  });
  afterEach(async () => {
    await page?.close();
    await aut?.close();
    rmSync(chosen, { recursive: true, force: true });
  });

  const row = (p: string) => page.locator(`[role="treeitem"][data-path="${p}"]`);
  const convRows = () => page.getByTestId('conversation-list').locator('.conv-row');
  const list = () => aut.app.handlers['conversation.list']({}, { transport: 'websocket' });

  async function startConversation(text: string, code: string): Promise<{ id: string; workspace: string }> {
    await newConversation(page);
    aut.llm.enqueue({ kind: 'tool', calls: [{ id: `call_${text.length}`, name: 'execute', arguments: { language: 'shell', code } }] }, { kind: 'text', text: `Done: ${text}` });
    await sendMessage(page, text);
    await expectText(page.getByTestId('assistant-message').last(), `Done: ${text}`, 20_000);
    const found = (await list()).find((c) => c.title === text);
    if (!found) throw new Error(`no conversation titled ${text}`);
    // The answer shows a moment before the turn has wound up; changes to the folder wait for that.
    await aut.app.context.agent.idle(found.id);
    return found;
  }

  it('moves the conversation to a typed folder: the tree shows its files and the next run works there', async () => {
    writeFileSync(path.join(chosen, 'chosen-readme.txt'), 'mine\n');
    mkdirSync(path.join(chosen, 'data'));
    writeFileSync(path.join(chosen, 'data', 'table.csv'), 'a,b\n');
    const conv = await startConversation('Start here', 'echo first > first.txt');
    await expect.poll(() => row('first.txt').count()).toBe(1);
    await expectText(page.getByTestId('workspace-path'), conv.workspace);

    await page.getByRole('button', { name: 'Change folder…' }).click();
    const field = page.getByRole('textbox', { name: 'Folder path' });
    // The field starts from the current folder, so a neighbour is a short edit away.
    expect(await field.inputValue()).toBe(conv.workspace);
    await field.fill(path.join(chosen, 'missing'));
    await field.press('Enter');
    await expectText(page.getByTestId('workspace-folder').getByRole('alert'), `there is no folder at ${path.join(chosen, 'missing')}`);

    await field.fill(chosen);
    await field.press('Enter');
    await expectText(page.getByTestId('workspace-path'), chosen);
    await expect.poll(() => row('chosen-readme.txt').count()).toBe(1);
    await expect.poll(() => row('data').count()).toBe(1);
    expect(await row('first.txt').count()).toBe(0);
    await expectText(page.locator('.chat'), `This conversation now works in ${chosen}`);
    await page.screenshot({ path: path.join(SHOTS, 'ui-workspace-folder.png') });

    aut.llm.enqueue({ kind: 'tool', calls: [{ id: 'call_here', name: 'execute', arguments: { language: 'shell', code: 'pwd > made-here.txt' } }] }, { kind: 'text', text: 'Made it here.' });
    await sendMessage(page, 'Write where you are');
    await expectText(page.getByTestId('assistant-message').last(), 'Made it here.', 20_000);
    await expect.poll(() => row('made-here.txt').count()).toBe(1);
    expect(readFileSync(path.join(chosen, 'made-here.txt'), 'utf8').trim()).toBe(chosen);
    expect(existsSync(path.join(conv.workspace, 'made-here.txt'))).toBe(false);
  });

  it('deletes a conversation with its files only when the box is ticked, and never offers it for a chosen folder', async () => {
    const scratch = await startConversation('Scratch work', 'mkdir -p out && echo 1 > out/a.txt && echo 2 > b.txt');
    const kept = await startConversation('Keep my files', 'echo keep > keep.txt');
    const mine = await startConversation('My project', 'true');
    await aut.app.handlers['conversation.set-workspace']({ conversationId: mine.id, path: chosen }, { transport: 'websocket' });
    writeFileSync(path.join(chosen, 'precious.txt'), 'do not delete');

    const confirmFor = async (title: string) => {
      const target = convRows().filter({ hasText: title });
      await target.hover();
      await target.getByRole('button', { name: `Delete ${title}` }).click();
      return page.getByRole('group', { name: `Delete ${title}?` });
    };

    // A folder the user chose: no box, and the row says the folder stays.
    const mineConfirm = await confirmFor('My project');
    await expectText(mineConfirm, new RegExp(`Its folder \\S*${path.basename(chosen)} stays\\.`));
    expect(await mineConfirm.getByRole('checkbox').count()).toBe(0);
    await mineConfirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(async () => (await list()).map((c) => c.title).sort()).toEqual(['Keep my files', 'Scratch work']);
    expect(readFileSync(path.join(chosen, 'precious.txt'), 'utf8')).toBe('do not delete');

    // The app's folder, box left unticked: the files stay.
    const keptConfirm = await confirmFor('Keep my files');
    const keptBox = keptConfirm.getByRole('checkbox', { name: `Also delete its files (1 file in …/workspaces/${kept.id})` });
    await expect.poll(() => keptBox.count()).toBe(1);
    expect(await keptBox.isChecked()).toBe(false);
    await keptConfirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(async () => (await list()).map((c) => c.title)).toEqual(['Scratch work']);
    expect(existsSync(path.join(kept.workspace, 'keep.txt'))).toBe(true);

    // Ticked: the folder goes with the conversation.
    const scratchConfirm = await confirmFor('Scratch work');
    const scratchBox = scratchConfirm.getByRole('checkbox', { name: `Also delete its files (2 files in …/workspaces/${scratch.id})` });
    await scratchBox.check();
    await page.screenshot({ path: path.join(SHOTS, 'ui-delete-with-files.png') });
    await scratchConfirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(async () => (await list()).length).toBe(0);
    await expect.poll(() => existsSync(scratch.workspace)).toBe(false);
  });
});
