import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { noisePng } from '../../bench/notebook-fixture';
import { expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { currentConversation, sendMessage, type OpenAiBody, shot } from '../support/ui-harness';

/** Puts files on the message box as a paste does: a real ClipboardEvent carrying File objects. */
async function pasteFiles(page: Page, files: Array<{ name: string; type: string; base64: string }>): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).evaluate((box, list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
    box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, files);
}

describe('attachments: thumbnails in the message, sent alone; tables and JSON in the preview', () => {
  // A vision model, so the image goes to it as an image part.
  // The tests share one app and page, each in a new conversation of its own (ui-fixture.ts's 'shared': a
  // test that leaves anything changed hands the next a fresh app), so each proves what it did alone.
  const ui = useUiApp({ settings: { model: 'gpt-4.1' } }, { start: 'shared' });

  it('sends an image with no text, and shows it as a thumbnail in the message', async () => {
    const png = noisePng(64).toString('base64');
    await pasteFiles(ui.page, [{ name: 'chart.png', type: 'image/png', base64: png }]);
    await expect.poll(() => ui.page.getByTestId('attachment-chip').getAttribute('data-state')).toBe('ready');
    const send = ui.page.getByRole('button', { name: 'Send', exact: true });
    expect(await send.isDisabled()).toBe(false);
    ui.aut.llm.enqueue({ kind: 'text', text: 'A noisy square picture.' });
    await send.click();
    await expectText(ui.page.getByTestId('assistant-message').last(), 'A noisy square picture.');

    const message = ui.page.getByTestId('user-message').last();
    const thumb = message.getByTestId('attachment-thumbnail').locator('img');
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(64);
    expect(await thumb.getAttribute('alt')).toBe('chart.png');
    expect(await message.locator('.msg-text').count()).toBe(0);
    await shot(ui.page, 'ui-attachment-thumbnail.png');

    // The model got the picture itself, and a note naming where it is; the conversation is named after it.
    const body = ui.aut.llm.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)?.body as OpenAiBody;
    const user = body.messages.filter((m) => m.role === 'user').at(-1);
    const parts = Array.isArray(user?.content) ? user.content : [];
    expect(parts.some((p) => p.type === 'image_url' && p.image_url?.url === `data:image/png;base64,${png}`)).toBe(true);
    expect(parts.find((p) => p.type === 'text')?.text).toBe('[Attached image: chart.png at attachments/chart.png in the workspace]');
    await expect
      .poll(async () => (await ui.aut.app.handlers['conversation.list']({}, { transport: 'websocket' }))[0]?.title)
      .toBe('chart.png');
    // Clicking the thumbnail opens the file in the preview.
    await message.getByTestId('attachment-thumbnail').click();
    await expectText(ui.page.getByTestId('preview-title'), 'attachments/chart.png');
  });

  it('shows a large CSV and a TSV as virtualised tables, and JSON indented', async () => {
    ui.aut.llm.enqueue({ kind: 'text', text: 'Ready.' });
    await sendMessage(ui.page, 'Get ready');
    await expectText(ui.page.getByTestId('assistant-message').last(), 'Ready.');
    const { workspace } = await currentConversation(ui.aut);
    const rows = 50_000;
    const lines = [
      'id,city,"note, with comma"',
      ...Array.from({ length: rows }, (_, i) => `${i},${i % 2 ? 'Lisbon' : 'Porto'},"said ""hi"" ${i}"`),
    ];
    writeFileSync(path.join(workspace, 'big.csv'), `${lines.join('\n')}\n`);
    writeFileSync(path.join(workspace, 'small.tsv'), 'name\tsize\nalpha\t1\nbeta, gamma\t2\n');
    writeFileSync(path.join(workspace, 'data.json'), '{"a":1,"b":[true,null,"x"],"c":{"d":"e"}}');
    await ui.page.getByRole('button', { name: 'Refresh the file list' }).click();

    await ui.page.locator('[data-path="big.csv"] .tree-name').click();
    const table = ui.page.getByTestId('table-preview');
    await expectText(table.getByTestId('table-summary'), `${rows.toLocaleString('en-US')} rows × 3 columns`);
    const grid = table.getByRole('table');
    expect(await grid.getByRole('columnheader').allTextContents()).toEqual(['#', 'id', 'city', 'note, with comma']);
    expect(await grid.getByRole('row').nth(1).getByRole('cell').allTextContents()).toEqual(['0', 'Porto', 'said "hi" 0']);
    // Only the rows near the view are in the page.
    const mounted = await grid.getByRole('row').count();
    expect(mounted).toBeLessThan(120);
    await shot(ui.page, 'ui-preview-csv.png');
    await grid.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expectText(grid.getByRole('row').last(), `${rows - 1}`);
    expect(await grid.getByRole('row').last().getByRole('cell').allTextContents()).toEqual([
      `${rows - 1}`,
      'Lisbon',
      `said "hi" ${rows - 1}`,
    ]);
    expect(await grid.getByRole('row').count()).toBeLessThan(120);

    await ui.page.locator('[data-path="small.tsv"] .tree-name').click();
    await expectText(ui.page.getByTestId('table-summary'), '2 rows × 2 columns');
    expect(await ui.page.getByTestId('table-preview').getByRole('row').nth(2).getByRole('cell').allTextContents()).toEqual([
      'beta, gamma',
      '2',
    ]);

    await ui.page.locator('[data-path="data.json"] .tree-name').click();
    await expectText(ui.page.getByTestId('preview-text'), '"b": [');
    expect(await ui.page.getByTestId('preview-text').textContent()).toBe(
      '{\n  "a": 1,\n  "b": [\n    true,\n    null,\n    "x"\n  ],\n  "c": {\n    "d": "e"\n  }\n}',
    );
    await shot(ui.page, 'ui-preview-json.png');
  });
});
