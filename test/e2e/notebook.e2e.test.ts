import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAttribute, expectText } from '../support/page-expect';
import { noisePng } from '../../bench/notebook-fixture';
import { startJupyter, type Jupyter } from '../support/jupyter';
import { downloadedBytes } from '../support/browser';
import { useUiApp } from '../support/ui-fixture';
import { sendMessage, shot } from '../support/ui-harness';
import { notebookJson } from '../support/notebook-json';

// Notebooks through the UI in Chromium: export downloads an .ipynb that nbformat accepts, import
// opens the notebook as a conversation with its outputs, and "re-run all" shows its progress.

/** A real 40×40 PNG, big enough to see. */
const PLOT = noisePng(40).toString('base64');

const code = (source: string, outputs: unknown[] = [], count: number | null = null) => ({
  cell_type: 'code',
  source,
  outputs,
  execution_count: count,
});

describe('notebooks in the UI, end to end in Chromium', () => {
  let jupyter: Jupyter;
  beforeAll(() => {
    jupyter = startJupyter();
  });
  afterAll(() => jupyter?.dispose());
  // Pages accept downloads unless told not to, so the export's download arrives.
  // The tests share one app and page, each in a new conversation of its own (ui-fixture.ts's 'shared': a
  // test that leaves anything changed hands the next a fresh app), so each proves what it did alone.
  const ui = useUiApp({ settings: { autoRun: true } }, { viewport: { width: 1280, height: 800 }, start: 'shared' });
  const list = () => ui.aut.app.handlers['conversation.list']({}, { transport: 'websocket' });

  const menu = async (item: string) => {
    await ui.page.getByRole('button', { name: 'Notebook', exact: true }).click();
    await ui.page.getByRole('menuitem', { name: item }).click();
  };

  const importFile = async (name: string, text: string) => {
    const [chooser] = await Promise.all([ui.page.waitForEvent('filechooser'), menu('Import notebook…')]);
    await chooser.setFiles({ name, mimeType: 'application/x-ipynb+json', buffer: Buffer.from(text) });
  };

  it('exports the open conversation from the toolbar as a notebook nbformat accepts', async () => {
    ui.aut.llm.enqueue(
      {
        kind: 'tool',
        text: 'Computing it in Python.',
        calls: [{ id: 'call_1', name: 'execute', arguments: { language: 'python', code: 'print(6 * 7)' } }],
      },
      { kind: 'text', text: 'The answer is **42**.' },
    );
    await ui.page.getByRole('button', { name: 'New conversation' }).click();
    await ui.page.getByRole('textbox', { name: 'Message' }).fill('What is six times seven?');
    await ui.page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await expectAttribute(ui.page.getByTestId('cell'), 'data-status', 'done', 20_000);
    await expectText(ui.page.getByTestId('assistant-message').last(), 'The answer is 42');

    const [download] = await Promise.all([ui.page.waitForEvent('download'), menu('Export as notebook…')]);
    expect(download.suggestedFilename()).toBe('What is six times seven.ipynb');
    const text = (await downloadedBytes(download)).toString('utf8');
    expect(await jupyter.validate([text], { exact: true })).toEqual([null]);
    const nb = JSON.parse(text) as { cells: Array<{ cell_type: string; source: string[]; outputs?: Array<{ text?: string[] }> }> };
    expect(nb.cells.map((c) => c.cell_type)).toEqual(['markdown', 'markdown', 'code', 'markdown']);
    expect(nb.cells[2]?.source.join('')).toBe('print(6 * 7)');
    expect(nb.cells[2]?.outputs?.[0]?.text?.join('')).toContain('42');
  });

  it('imports a notebook from the toolbar: its cells show, with an image output', async () => {
    await importFile(
      'sales.ipynb',
      notebookJson([
        {
          cell_type: 'markdown',
          source: '# Sales report\n\nRows first, then the chart. A pasted picture: ![pasted](attachment:pasted.png)',
          attachments: { 'pasted.png': { 'image/png': PLOT } },
        },
        code('print("rows: 3")', [{ output_type: 'stream', name: 'stdout', text: 'rows: 3\n' }], 1),
        code('plot()', [{ output_type: 'display_data', data: { 'image/png': PLOT, 'text/plain': '<Figure>' }, metadata: {} }], 2),
      ]),
    );
    await expectText(ui.page.getByTestId('conversation-list'), 'Sales report');
    await expectText(ui.page.getByTestId('assistant-message').first(), 'Rows first, then the chart.');
    await expect.poll(() => ui.page.getByTestId('cell').count()).toBe(2);
    await expectText(ui.page.getByTestId('cell-code').first(), 'print("rows: 3")');
    const image = ui.page.getByTestId('output-image');
    await image.waitFor({ state: 'visible' });
    expect(await image.getAttribute('src')).toBe(`data:image/png;base64,${PLOT}`);
    // The image really decoded and takes room on the page, not just an <img> with a source.
    expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(40);
    expect((await image.boundingBox())?.width).toBeGreaterThanOrEqual(40);
    // The markdown's attachment, written into the workspace on import, shows in the prose.
    const pasted = ui.page.getByTestId('assistant-message').first().locator('img[alt="pasted"]');
    await expect.poll(() => pasted.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))).toBe(40);
    expect(await pasted.getAttribute('src')).toBe(`data:image/png;base64,${PLOT}`);
    await expectText(ui.page.getByTestId('rerun-status'), 'Re-run all 2 code cells');
    await shot(ui.page, 'notebook-import.png');
  });

  it('says why a broken notebook cannot be imported, and creates no conversation', async () => {
    const before = await list();
    await importFile('broken.ipynb', '{"nbformat": 4, "cells": [');
    await expectText(ui.page.getByTestId('error-banner'), /broken\.ipynb: The file is not valid JSON: .* at line 1, column \d+/);
    expect(await list()).toEqual(before);
  });

  it('offers to import an .ipynb dropped on the window, and imports it on "Import"', async () => {
    const text = notebookJson([
      { cell_type: 'markdown', source: '# Dropped analysis' },
      code('print(1)', [{ output_type: 'stream', name: 'stdout', text: '1\n' }], 1),
    ]);
    const dataTransfer = await ui.page.evaluateHandle((json) => {
      const dt = new DataTransfer();
      dt.items.add(new File([json], 'dropped.ipynb', { type: 'application/x-ipynb+json' }));
      return dt;
    }, text);
    await ui.page.dispatchEvent('[data-testid="chat"]', 'drop', { dataTransfer });
    await expectText(ui.page.getByTestId('notebook-drop-offer'), 'Import dropped.ipynb as a new conversation?');
    await ui.page.getByTestId('notebook-drop-offer').getByRole('button', { name: 'Import', exact: true }).click();
    await expectText(ui.page.getByTestId('conversation-list'), 'Dropped analysis');
    await expectText(ui.page.getByTestId('cell-code'), 'print(1)');
    expect(await ui.page.getByTestId('notebook-drop-offer').count()).toBe(0);
  });

  it('previews an .ipynb from the file tree read-only: markdown rendered, code, outputs and images', async () => {
    // A conversation (and its folder) exists once its first message is sent.
    await ui.page.getByRole('button', { name: 'New conversation' }).click();
    const before = (await list()).length;
    ui.aut.llm.enqueue({ kind: 'text', text: 'Ready.' });
    await sendMessage(ui.page, 'Get ready');
    await expect.poll(async () => (await list()).length).toBe(before + 1);
    // The list is newest first: the conversation just made.
    const conv = (await list())[0];
    writeFileSync(
      path.join(conv?.workspace ?? '/nonexistent', 'analysis.ipynb'),
      notebookJson([
        { cell_type: 'markdown', source: '## Findings\n\nSales **rose**.' },
        code('print("hello")', [{ output_type: 'stream', name: 'stdout', text: 'hello\n' }], 1),
        code('plot()', [{ output_type: 'display_data', data: { 'image/png': PLOT, 'text/plain': '<Figure>' }, metadata: {} }], 2),
        code(
          '1/0',
          [
            {
              output_type: 'error',
              ename: 'ZeroDivisionError',
              evalue: 'division by zero',
              traceback: ['\u001b[0;31mZeroDivisionError\u001b[0m: division by zero'],
            },
          ],
          3,
        ),
      ]),
    );
    await ui.page.getByRole('button', { name: 'Refresh the file list' }).click();
    await ui.page.locator('[data-path="analysis.ipynb"] .tree-name').click();
    const preview = ui.page.getByTestId('notebook-preview');
    await expectText(preview, 'nbformat 4.5 · 4 cells');
    expect(await preview.locator('h2').textContent()).toBe('Findings');
    expect(await preview.locator('strong').textContent()).toBe('rose');
    await expectText(preview.locator('[data-cell-type="code"]').first(), 'In [1]:');
    await expectText(preview.locator('[data-cell-type="code"]').first(), 'hello');
    expect(await preview.getByTestId('nb-image').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(40);
    await expectText(preview.locator('.nb-preview-error summary'), 'ZeroDivisionError: division by zero');
  });

  it('re-runs all cells with "cell k of n" progress, stops at the first error and continues after it', async () => {
    await importFile(
      'rerun.ipynb',
      notebookJson([
        code('x = 20'),
        // Waits for the test to say go, so the bar can be seen mid-run without timing anything.
        code(
          'import os, time\nwhile not os.path.exists("go"):\n    time.sleep(0.02)\nprint(x + 1)',
          [{ output_type: 'stream', name: 'stdout', text: 'stale\n' }],
          2,
        ),
        code('1/0'),
        code('print("after", x)'),
      ]),
    );
    await expectText(ui.page.getByTestId('rerun-status'), 'Re-run all 4 code cells');
    await ui.page.getByRole('button', { name: 'Re-run all cells', exact: true }).click();
    await expectText(ui.page.getByTestId('rerun-status'), 'Re-running cell 2 of 4…');
    await shot(ui.page, 'notebook-rerun.png');

    const conv = (await ui.aut.app.handlers['conversation.list']({}, { transport: 'websocket' }))[0];
    writeFileSync(path.join(conv?.workspace ?? '/nonexistent', 'go'), '');
    await expectText(ui.page.getByTestId('rerun-status'), 'Stopped at cell 3 of 4: it ended “failed”', 20_000);
    await expectAttribute(ui.page.getByTestId('cell').nth(2), 'data-status', 'failed');
    await expectText(ui.page.getByTestId('cell').nth(1), '21');
    // Issue 25, item 9: cell 4 did not run in this re-run; its "done" from the file is not shown as this run's.
    const fourth = ui.page.getByTestId('cell').nth(3);
    await expectText(fourth.getByTestId('cell-status'), 'not re-run');
    expect(await fourth.getByTestId('cell-status').textContent()).not.toContain('done');
    expect(await ui.page.getByTestId('cell').nth(1).getByTestId('cell-not-rerun').count()).toBe(0);

    await ui.page.getByRole('button', { name: 'Continue from cell 4' }).click();
    await expectText(ui.page.getByTestId('rerun-status'), 'Re-run finished: cell 4 of 4 ran.', 20_000);
    await expectText(ui.page.getByTestId('cell').nth(3), 'after 20');
    expect(await fourth.getByTestId('cell-not-rerun').count()).toBe(0);
  });

  it('shows imported HTML outputs without running their scripts until the cell runs again', async () => {
    const html =
      '<p id="x">static</p><p id="after">after the script</p><script>document.getElementById("x").textContent = "script ran"</script>';
    // The runner's own display() and HTML (no IPython needed), as a notebook exported by this app would have.
    const source = `display(HTML(${JSON.stringify(html)}))`;
    await importFile(
      'chart.ipynb',
      notebookJson([code(source, [{ output_type: 'display_data', metadata: {}, data: { 'text/html': html, 'text/plain': '<HTML>' } }], 1)]),
    );
    const imported = ui.page.getByTestId('cell').getByTestId('html-output').contentFrame();
    await expectText(imported.locator('#after'), 'after the script');
    expect(await imported.locator('#x').textContent()).toBe('static');
    await expectText(ui.page.getByTestId('cell'), 'Scripts in outputs imported from a notebook do not run');

    await ui.page.getByRole('button', { name: 'Re-run all cells', exact: true }).click();
    await expectText(ui.page.getByTestId('rerun-status'), 'Re-run finished', 30_000);
    const rerun = ui.page.getByTestId('cell').getByTestId('html-output').contentFrame();
    await expectText(rerun.locator('#x'), 'script ran');
  });
});
