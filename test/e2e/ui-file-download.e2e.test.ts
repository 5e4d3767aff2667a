import { rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectText } from '../support/page-expect';
import { downloadedBytes } from '../support/browser';
import { useUiApp } from '../support/ui-fixture';
import { currentConversation, sendMessage, shot } from '../support/ui-harness';

describe('downloading a file the code wrote, in browser mode', () => {
  const ui = useUiApp({ settings: { autoRun: true, exec: { pythonPath: '/usr/bin/python3' } } }, { newConversation: true });

  const row = (p: string) => ui.page.locator(`[role="treeitem"][data-path="${p}"]`);

  it('downloads from the tree and from the preview the same bytes under the file’s name, and explains a refusal', async () => {
    const code = [
      'import os',
      'os.makedirs("results", exist_ok=True)',
      'open("results/report ü.bin", "wb").write(bytes(range(256)) * 4096)',
      'open("results/summary.csv", "w").write("x,y\\n1,2\\n")',
    ].join('\n');
    ui.aut.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_d', name: 'execute', arguments: { language: 'python', code } }] },
      { kind: 'text', text: 'Saved the report.' },
    );
    await sendMessage(ui.page, 'Write a report');
    await expectText(ui.page.getByTestId('assistant-message').last(), 'Saved the report.', 60_000);
    await expect.poll(() => row('results/report ü.bin').count()).toBe(1);
    const expected = Buffer.concat(Array.from({ length: 4096 }, () => Buffer.from(Array.from({ length: 256 }, (_, i) => i))));

    await row('results/report ü.bin').hover();
    // Only the desktop window hands files to other apps (test/e2e/ui-desktop-files.e2e.test.ts).
    expect(
      await row('results/report ü.bin')
        .getByRole('button', { name: /Open in the default app|Open with…/ })
        .count(),
    ).toBe(0);
    await shot(ui.page, 'ui-file-download.png');
    const [fromTree] = await Promise.all([
      ui.page.waitForEvent('download'),
      row('results/report ü.bin').getByRole('button', { name: 'Download report ü.bin' }).click(),
    ]);
    expect(fromTree.suggestedFilename()).toBe('report ü.bin');
    expect(await fromTree.failure()).toBeNull();
    expect((await downloadedBytes(fromTree)).equals(expected)).toBe(true);

    await row('results/summary.csv').getByRole('button', { name: 'summary.csv' }).click();
    await expectText(ui.page.getByTestId('preview-title'), 'results/summary.csv');
    const [fromPreview] = await Promise.all([
      ui.page.waitForEvent('download'),
      ui.page.getByRole('button', { name: 'Download this file' }).click(),
    ]);
    expect(fromPreview.suggestedFilename()).toBe('summary.csv');
    expect((await downloadedBytes(fromPreview)).toString('utf8')).toBe('x,y\n1,2\n');

    // Gone from disk while still in the preview: the panel says why instead of a failed download.
    const { workspace } = await currentConversation(ui.aut);
    rmSync(path.join(workspace, 'results', 'summary.csv'));
    await expect.poll(() => row('results/summary.csv').count()).toBe(0);
    await ui.page.getByRole('button', { name: 'Download this file' }).click();
    await expectText(ui.page.locator('.file-tree [role="alert"]'), /could not download results\/summary\.csv: the file no longer exists/);
  });
});
