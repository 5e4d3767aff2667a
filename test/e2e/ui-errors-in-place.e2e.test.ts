import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { requests } from '@contract/requests';
import { expectAttribute, expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { currentConversation, sendMessage } from '../support/ui-harness';

// Issue 25, item 3: a double-click on Run showed `cell.approve: cell … is not waiting for approval`
// in a red banner that then followed the person into other conversations, and after a rewind the
// preview showed `workspace.preview: "chart-renamed.png" does not exist in the workspace`. A repeated
// action is ignored; no request name or id reaches the screen; an error stays with its conversation.

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Main's request names as dispatch puts them before a message ("cell.approve: "). */
const REQUEST_NAME = new RegExp(`(?:${Object.keys(requests).map(escape).join('|')}): `);

describe('errors where they belong, in words a person reads', () => {
  const ui = useUiApp({}, { newConversation: true });

  it('ignores a second click on Run, never shows a request name, and keeps a banner with its conversation', async () => {
    const p = ui.page;
    // Every piece of text the page shows from here on, however briefly, is kept for the last check.
    await p.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { shownText: string[] }).shownText = seen;
      new MutationObserver((records) => {
        for (const r of records) {
          if (r.type === 'characterData') seen.push(r.target.textContent ?? '');
          for (const node of r.addedNodes) seen.push(node.textContent ?? '');
        }
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    const banner = p.getByTestId('error-banner');

    ui.aut.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_once', name: 'execute', arguments: { language: 'shell', code: 'echo ran >> runs.log' } }] },
      { kind: 'text', text: 'It ran once.' },
    );
    await sendMessage(p, 'Log one run');
    const cell = p.getByTestId('cell').first();
    await expectAttribute(cell, 'data-status', 'awaiting-approval');
    // A double-click: both clicks land on Run before the page hears that the first was taken (both
    // in one task, as a quick double-click does on a busy machine), so main refuses the second.
    await p.getByRole('button', { name: 'Run', exact: true }).evaluate((button: HTMLElement) => {
      button.click();
      button.click();
    });
    await expectText(p.getByTestId('assistant-message').last(), 'It ran once.');
    await expectAttribute(cell, 'data-status', 'done');
    const { workspace } = await currentConversation(ui.aut);
    expect(readFileSync(path.join(workspace, 'runs.log'), 'utf8')).toBe('ran\n');
    // Main did refuse the second click; the person is not told about it.
    expect(ui.frames.some((f) => f.includes('is not waiting for approval'))).toBe(true);
    expect(await banner.count()).toBe(0);

    // The preview of a file a rewind then removes says so in plain words.
    await p.locator('[role="treeitem"][data-path="runs.log"]').getByRole('button', { name: 'runs.log' }).click();
    await expectText(p.getByTestId('preview-text'), 'ran');
    await cell.getByTestId('rewind-cell').click();
    await p.getByTestId('rewind-dialog').getByRole('button', { name: 'Rewind files' }).click();
    const previewError = p.getByTestId('preview').getByRole('alert');
    await expectText(previewError, '"runs.log" does not exist in the workspace');

    // A file the person attaches that cannot be saved (the code made attachments/ a file): the chip
    // says why, without the request's name before it.
    writeFileSync(path.join(workspace, 'attachments'), 'not a folder\n');
    await p.getByTestId('chat').evaluate((target) => {
      const dt = new DataTransfer();
      dt.items.add(new File(['a,b\n'], 'table.csv', { type: 'text/csv' }));
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    const chip = p.getByTestId('attachment-chip');
    await expectAttribute(chip, 'data-state', 'failed');
    await expectText(chip, /attachments\/ is not a plain folder/);
    await p.getByRole('button', { name: 'Remove table.csv' }).click();

    // A failure in conversation A shows in A's banner only: not in B, and again back in A.
    const tooLong = 'x'.repeat(1_000_001);
    await sendMessage(p, tooLong);
    await expectText(banner, /text: Too big/);
    ui.aut.llm.enqueue({ kind: 'text', text: 'Hello from B.' });
    await p.getByRole('button', { name: 'New conversation' }).click();
    await sendMessage(p, 'Conversation B');
    await expectText(p.getByTestId('assistant-message').last(), 'Hello from B.');
    expect(await banner.count()).toBe(0);
    await p.getByTestId('conversation-list').locator('.conv-row').filter({ hasText: 'Log one run' }).click();
    await expectText(p.getByTestId('user-message').first(), 'Log one run');
    await expectText(banner, /text: Too big/);
    await banner.getByRole('button', { name: 'Dismiss the error' }).click();
    await expect.poll(() => banner.count()).toBe(0);

    const shown = await p.evaluate(() => (window as unknown as { shownText: string[] }).shownText);
    expect(shown.filter((t) => REQUEST_NAME.test(t))).toEqual([]);
  });
});
