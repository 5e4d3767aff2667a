import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { newConversation, sendMessage, shot } from '../support/ui-harness';

describe('the conversation’s folder: choosing another one, deleting the app’s one with the conversation', () => {
  const ui = useUiApp({ settings: { autoRun: true } });
  let chosen: string;

  beforeEach(() => {
    chosen = mkdtempSync(path.join(os.tmpdir(), 'oi-ui-chosen-'));
  });
  afterEach(() => rmSync(chosen, { recursive: true, force: true }));

  const row = (p: string) => ui.page.locator(`[role="treeitem"][data-path="${p}"]`);
  const convRows = () => ui.page.getByTestId('conversation-list').locator('.conv-row');
  const list = () => ui.aut.app.handlers['conversation.list']({}, { transport: 'websocket' });

  async function startConversation(text: string, code: string): Promise<{ id: string; workspace: string }> {
    await newConversation(ui.page);
    ui.aut.llm.enqueue(
      { kind: 'tool', calls: [{ id: `call_${text.length}`, name: 'execute', arguments: { language: 'shell', code } }] },
      { kind: 'text', text: `Done: ${text}` },
    );
    await sendMessage(ui.page, text);
    await expectText(ui.page.getByTestId('assistant-message').last(), `Done: ${text}`, 20_000);
    const found = (await list()).find((c) => c.title === text);
    if (!found) throw new Error(`no conversation titled ${text}`);
    // The answer shows a moment before the turn has wound up; changes to the folder wait for that.
    await ui.aut.app.context.agent.idle(found.id);
    return found;
  }

  it('moves the conversation to a typed folder: the tree shows its files and the next run works there', async () => {
    writeFileSync(path.join(chosen, 'chosen-readme.txt'), 'mine\n');
    mkdirSync(path.join(chosen, 'data'));
    writeFileSync(path.join(chosen, 'data', 'table.csv'), 'a,b\n');
    const conv = await startConversation('Start here', 'echo first > first.txt');
    await expect.poll(() => row('first.txt').count()).toBe(1);
    await expectText(ui.page.getByTestId('workspace-path'), conv.workspace);

    await ui.page.getByRole('button', { name: 'Change folder…' }).click();
    const field = ui.page.getByRole('textbox', { name: 'Folder path' });
    // The field starts from the current folder, so a neighbour is a short edit away.
    expect(await field.inputValue()).toBe(conv.workspace);
    await field.fill(path.join(chosen, 'missing'));
    await field.press('Enter');
    await expectText(ui.page.getByTestId('workspace-folder').getByRole('alert'), `there is no folder at ${path.join(chosen, 'missing')}`);

    await field.fill(chosen);
    await field.press('Enter');
    await expectText(ui.page.getByTestId('workspace-path'), chosen);
    await expect.poll(() => row('chosen-readme.txt').count()).toBe(1);
    await expect.poll(() => row('data').count()).toBe(1);
    expect(await row('first.txt').count()).toBe(0);
    await expectText(ui.page.locator('.chat'), `This conversation now works in ${chosen}`);
    await shot(ui.page, 'ui-workspace-folder.png');

    ui.aut.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_here', name: 'execute', arguments: { language: 'shell', code: 'pwd > made-here.txt' } }] },
      { kind: 'text', text: 'Made it here.' },
    );
    await sendMessage(ui.page, 'Write where you are');
    await expectText(ui.page.getByTestId('assistant-message').last(), 'Made it here.', 20_000);
    await expect.poll(() => row('made-here.txt').count()).toBe(1);
    expect(readFileSync(path.join(chosen, 'made-here.txt'), 'utf8').trim()).toBe(chosen);
    expect(existsSync(path.join(conv.workspace, 'made-here.txt'))).toBe(false);
  });

  it('deletes a conversation with its files only when the box is ticked, and never offers it for a chosen folder', async () => {
    const scratch = await startConversation('Scratch work', 'mkdir -p out && echo 1 > out/a.txt && echo 2 > b.txt');
    const kept = await startConversation('Keep my files', 'echo keep > keep.txt');
    const mine = await startConversation('My project', 'true');
    await ui.aut.app.handlers['conversation.set-workspace']({ conversationId: mine.id, path: chosen }, { transport: 'websocket' });
    writeFileSync(path.join(chosen, 'precious.txt'), 'do not delete');

    const confirmFor = async (title: string) => {
      const target = convRows().filter({ hasText: title });
      await target.hover();
      await target.getByRole('button', { name: `Delete ${title}` }).click();
      return ui.page.getByRole('group', { name: `Delete ${title}?` });
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
    await shot(ui.page, 'ui-delete-with-files.png');
    await scratchConfirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(async () => (await list()).length).toBe(0);
    await expect.poll(() => existsSync(scratch.workspace)).toBe(false);
  });
});
