import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAttribute, expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { currentConversation, sendMessage, type OpenAiBody, shot } from '../support/ui-harness';

// A 2×2 PNG (red, green / blue, white).
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==';

interface DropFile {
  name: string;
  type: string;
  base64: string;
}

/** Drops files on an element the way a browser does: a real DataTransfer on dragenter/dragover/drop. */
async function dropFiles(page: Page, testId: string, files: DropFile[]): Promise<void> {
  await page.getByTestId(testId).evaluate((target, list: DropFile[]) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], f.name, { type: f.type }));
    }
    for (const type of ['dragenter', 'dragover', 'drop'])
      target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, files);
}

describe('dropping and pasting files into the chat', () => {
  // A vision model, so the image goes to it as an image part.
  // The tests share one app and page, each in a new conversation of its own (ui-fixture.ts's 'shared': a
  // test that leaves anything changed hands the next a fresh app), so each proves what it did alone.
  const ui = useUiApp({ settings: { model: 'gpt-4.1' } }, { newConversation: true, start: 'shared' });

  // A page in a browser has only the dropped files' bytes, never their paths: the desktop app's copy
  // by path, which must leave the original untouched, is checked in
  // test/integration/workspace/attachments.test.ts.
  it('copies dropped files into attachments/ and sends the image as an image part', async () => {
    await dropFiles(ui.page, 'chat', [
      { name: 'numbers.csv', type: 'text/csv', base64: Buffer.from('a,b\n1,2\n3,4\n').toString('base64') },
      { name: 'pixels.png', type: 'image/png', base64: PNG_BASE64 },
    ]);
    const chips = ui.page.getByTestId('attachment-chip');
    await expect.poll(() => chips.count()).toBe(2);
    await expectAttribute(chips.nth(0), 'data-state', 'ready');
    await expectAttribute(chips.nth(1), 'data-state', 'ready');
    expect(await chips.nth(1).locator('img.chip-thumb').count()).toBe(1);

    const { workspace } = await currentConversation(ui.aut);
    expect(readFileSync(path.join(workspace, 'attachments', 'numbers.csv'), 'utf8')).toBe('a,b\n1,2\n3,4\n');
    expect(readFileSync(path.join(workspace, 'attachments', 'pixels.png')).toString('base64')).toBe(PNG_BASE64);
    // The tree shows them as soon as they land.
    await expectText(ui.page.getByTestId('file-tree'), 'pixels.png');
    await shot(ui.page, 'ui-attachments.png');

    ui.aut.llm.enqueue({ kind: 'text', text: 'A tiny four-pixel image and a CSV.' });
    await sendMessage(ui.page, 'What is in these files?');
    await expectText(ui.page.getByTestId('assistant-message').last(), 'four-pixel');
    await expect.poll(() => chips.count()).toBe(0);
    await expectText(ui.page.getByTestId('user-message').last(), 'numbers.csv');

    const body = ui.aut.llm.requests.find((r) => r.path === '/v1/chat/completions')?.body as OpenAiBody;
    const user = body.messages.filter((m) => m.role === 'user').at(-1);
    expect(Array.isArray(user?.content)).toBe(true);
    const parts = user?.content as Array<{ type: string; text?: string; image_url?: { url: string } }>;
    expect(parts.find((p) => p.type === 'image_url')?.image_url?.url).toBe(`data:image/png;base64,${PNG_BASE64}`);
    expect(
      parts
        .filter((p) => p.type === 'text')
        .map((p) => p.text)
        .join('\n'),
    ).toContain('attachments/numbers.csv');
  });

  it('attaches a pasted image', async () => {
    await ui.page.getByRole('textbox', { name: 'Message' }).evaluate((box, b64) => {
      const dt = new DataTransfer();
      dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], 'image.png', { type: 'image/png' }));
      box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    }, PNG_BASE64);
    await expectAttribute(ui.page.getByTestId('attachment-chip'), 'data-state', 'ready');
    const { workspace } = await currentConversation(ui.aut);
    expect(readFileSync(path.join(workspace, 'attachments', 'image.png')).toString('base64')).toBe(PNG_BASE64);
  });

  it('refuses a file over the size limit with a clear reason', async () => {
    await ui.page.getByTestId('chat').evaluate((target) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(17 * 1024 * 1024)], 'huge.bin', { type: 'application/octet-stream' }));
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    const chip = ui.page.getByTestId('attachment-chip');
    await expectAttribute(chip, 'data-state', 'failed');
    await expectText(chip, /17\.0 MB is over the 16\.0 MB limit/);
    // Nothing was written (checked once the chip shows the refusal, which follows any request the page made).
    const { workspace } = await currentConversation(ui.aut);
    const attachments = path.join(workspace, 'attachments');
    expect(existsSync(attachments) ? readdirSync(attachments) : []).toEqual([]);
    // Removing the failed chip clears it.
    await ui.page.getByRole('button', { name: 'Remove huge.bin' }).click();
    await expect.poll(() => chip.count()).toBe(0);
  });
});
