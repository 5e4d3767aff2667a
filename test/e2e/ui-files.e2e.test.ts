import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectAttribute, expectText } from '../support/page-expect';
import { notebookJson } from '../support/notebook-json';
import { SQUARES_PLOT } from '../support/squares-plot';
import { useUiApp } from '../support/ui-fixture';
import { currentConversation, sendMessage, workspaceAfterHello, shot } from '../support/ui-harness';

describe('the workspace panel: live tree, highlights, preview, file actions, plots', () => {
  // The tests share one app and page, each in a new conversation of its own (ui-fixture.ts's 'shared': a
  // test that leaves anything changed hands the next a fresh app), so each proves what it did alone.
  const ui = useUiApp(
    { settings: { autoRun: true, exec: { pythonPath: '/usr/bin/python3' } } },
    { newConversation: true, start: 'shared' },
  );

  const row = (p: string) => ui.page.locator(`[role="treeitem"][data-path="${p}"]`);

  it('shows files the code writes as they appear, highlights them, previews, inserts, renames and deletes', async () => {
    ui.aut.llm.enqueue(
      {
        kind: 'tool',
        calls: [
          {
            id: 'call_w',
            name: 'execute',
            arguments: {
              language: 'shell',
              // A folder and a file made and removed within the run: the watcher sees them, the cell's list does not.
              code: 'mkdir -p out && printf "x,y\\n1,2\\n" > out/data.csv && printf "def hello():\\n    return 42\\n" > tool.py && echo t > scratch.tmp && rm scratch.tmp',
            },
          },
        ],
      },
      { kind: 'text', text: 'Wrote two files.' },
    );
    await sendMessage(ui.page, 'Write some files');
    await expectText(ui.page.getByTestId('assistant-message').last(), 'Wrote two files.', 20_000);
    await expectAttribute(row('tool.py'), 'data-changed', 'true');
    await expectAttribute(row('out/data.csv'), 'data-changed', 'true');
    // Issue 25, item 9: the badge counts what the cell's own line counts (the folder out/ and the
    // file made and removed are not changes of the workspace's files).
    await expectText(ui.page.getByTestId('cell-changes'), '2 files changed');
    await expectText(ui.page.locator('.badge-changed'), '2 changed');

    await row('tool.py').getByRole('button', { name: 'tool.py' }).click();
    await expectText(ui.page.getByTestId('preview-title'), 'tool.py');
    await expectText(ui.page.getByTestId('preview-text'), 'return 42');
    expect(await ui.page.getByTestId('preview-text').locator('.tok-keyword').first().textContent()).toBe('def');
    await shot(ui.page, 'ui-files-preview.png');

    await row('tool.py').hover();
    await row('tool.py').getByRole('button', { name: 'Insert the path of tool.py into the message' }).click();
    await expect.poll(() => ui.page.getByRole('textbox', { name: 'Message' }).inputValue()).toContain('tool.py');

    await row('tool.py').hover();
    await row('tool.py').getByRole('button', { name: 'Rename tool.py' }).click();
    await ui.page.getByRole('textbox', { name: 'New name for tool.py' }).fill('helpers.py');
    await ui.page.getByRole('textbox', { name: 'New name for tool.py' }).press('Enter');
    await expect.poll(() => row('helpers.py').count()).toBe(1);
    const { workspace } = await currentConversation(ui.aut);
    expect(existsSync(path.join(workspace, 'helpers.py'))).toBe(true);
    expect(existsSync(path.join(workspace, 'tool.py'))).toBe(false);
    await expectText(ui.page.getByTestId('preview-title'), 'helpers.py');

    await row('out/data.csv').hover();
    await row('out/data.csv').getByRole('button', { name: 'Delete data.csv' }).click();
    await row('out/data.csv').getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => row('out/data.csv').count()).toBe(0);
    expect(existsSync(path.join(workspace, 'out', 'data.csv'))).toBe(false);
  });

  it('previews a notebook read-only and other files as metadata, picking up files written outside the app', async () => {
    const workspace = await workspaceAfterHello(ui);
    const notebook = notebookJson([
      { cell_type: 'markdown', source: ['# Sales *report*'] },
      {
        cell_type: 'code',
        execution_count: 3,
        source: ['total = 2 + 2\n', 'print(total)'],
        outputs: [{ output_type: 'stream', name: 'stdout', text: ['4\n'] }],
      },
    ]);
    writeFileSync(path.join(workspace, 'report.ipynb'), notebook);
    writeFileSync(path.join(workspace, 'data.bin'), Buffer.from([0, 1, 2, 3, 0, 255]));

    await expect.poll(() => row('report.ipynb').count(), { timeout: 10_000 }).toBe(1);
    await row('report.ipynb').getByRole('button', { name: 'report.ipynb' }).click();
    const nb = ui.page.getByTestId('notebook-preview');
    await expectText(nb, /Notebook \(read-only\) · nbformat 4\.5 · 2 cells · Python 3/);
    expect(await nb.locator('h1').textContent()).toBe('Sales report');
    await expectText(nb, 'In [3]:');
    await expectText(nb, 'total = 2 + 2');
    await expectText(nb.locator('.nb-preview-stream'), '4');

    await expect.poll(() => row('data.bin').count()).toBe(1);
    await row('data.bin').getByRole('button', { name: 'data.bin' }).click();
    await expectText(ui.page.getByTestId('preview-meta'), 'binary file');
    await expectText(ui.page.getByTestId('preview-meta'), '6 B');
  });

  it('shows a matplotlib plot inline and opens it in the preview', async () => {
    const code = SQUARES_PLOT;
    ui.aut.llm.enqueue(
      {
        kind: 'tool',
        text: 'Plotting the squares of 1 to 10.',
        calls: [{ id: 'call_p', name: 'execute', arguments: { language: 'python', code } }],
      },
      { kind: 'text', text: 'The curve is a parabola.' },
    );
    await sendMessage(ui.page, 'Plot the squares of 1 to 10');
    await expectText(ui.page.getByTestId('assistant-message').last(), 'parabola', 60_000);
    await expectAttribute(ui.page.getByTestId('cell').last(), 'data-status', 'done');
    const inline = ui.page.getByTestId('output-image').first();
    await expect.poll(async () => (await inline.getAttribute('src')) ?? '', { timeout: 10_000 }).toMatch(/^data:image\/png;base64,iVBOR/);
    const preview = ui.page.getByTestId('preview-image');
    await expect.poll(async () => (await preview.getAttribute('src')) ?? '').toMatch(/^data:image\/png;base64,iVBOR/);
    await expectAttribute(row('squares.png'), 'data-changed', 'true');
    await ui.page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid="preview-image"]');
      return !!img && img.complete && img.naturalWidth > 100;
    });
    await shot(ui.page, 'ui-chat-plot.png');

    // Zoom in, then fit again.
    await ui.page.getByRole('button', { name: 'Zoom in' }).click();
    await expectText(ui.page.locator('.zoom-level'), /\d+%/);
    await ui.page.getByRole('button', { name: 'Fit' }).click();
    await expectAttribute(ui.page.getByRole('button', { name: 'Fit' }), 'aria-pressed', 'true');

    // The saved file previews too.
    await row('squares.png').getByRole('button', { name: 'squares.png' }).click();
    await expectText(ui.page.getByTestId('preview-title'), 'squares.png');
    await expect.poll(async () => (await preview.getAttribute('src')) ?? '').toMatch(/^data:image\/png;base64,/);
  });
});
