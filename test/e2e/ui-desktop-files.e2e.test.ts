import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Dialog, Shell } from 'electron';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src-main/core/bridge/dispatch';
import { notebookSaveAs } from '../../src-main/electron/notebook-save-as';
import { openWithHandler } from '../../src-main/electron/open-with';
import { openDesktopWindow } from '../support/desktop-window';
import { expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';

// The desktop window's "Open in the default app" and "Export as notebook…" (issue 33, item 2), in
// Chromium with the preload's window.oi (test/support/desktop-window.ts): the requests reach the
// shell's handlers (electron/open-with.ts, notebook-save-as.ts) over the real core, with stand-ins for
// Electron's shell and Save dialog that record what they were asked.

describe('files and notebooks through the OS, from the desktop window', () => {
  const ui = useUiApp({}, { openPage: false });
  let closeWindow: (() => Promise<void>) | null = null;
  const saveDir = mkdtempSync(path.join(os.tmpdir(), 'oi-save-as-'));
  afterEach(async () => {
    await closeWindow?.();
    closeWindow = null;
  });
  afterAll(() => rmSync(saveDir, { recursive: true, force: true }));

  it('opens a file from the tree in its default app, refuses a script with the reason, and saves the export where the dialog chose', async () => {
    const opened: string[] = [];
    const shell = { openPath: async (file: string) => (opened.push(file), '') } as Pick<Shell, 'openPath'>;
    const target = path.join(saveDir, 'Chosen.ipynb');
    const asked: unknown[] = [];
    const dialog = {
      showSaveDialog: async (options: unknown) => (asked.push(options), { canceled: false, filePath: target }),
    } as unknown as Pick<Dialog, 'showSaveDialog'>;
    const { app } = ui.aut;
    const workspaceOf = async (id: string) => (await app.context.agent.snapshot(id)).workspace;
    const dispatch = createDispatcher({
      ...app.handlers,
      'workspace.open-with': openWithHandler(workspaceOf, { shell, platform: 'linux' }),
      'notebook.save-as': notebookSaveAs({
        dialog,
        window: () => null,
        suggestedFolder: () => os.tmpdir(),
        exportNotebook: async (conversationId) => {
          const reply = await dispatch('notebook.export', { conversationId }, { transport: 'ipc' });
          if (!reply.ok) throw new Error(reply.error.message);
          return reply.result as { fileName: string; text: string };
        },
      }),
    });
    const win = await openDesktopWindow(ui.browser, ui.aut.server.launchUrl, dispatch, app.events);
    closeWindow = win.close;
    const { page } = win;
    let downloads = 0;
    page.on('download', () => {
      downloads += 1;
    });

    const created = await dispatch('conversation.create', {}, { transport: 'ipc' });
    if (!created.ok) throw new Error(created.error.message);
    const { id, workspace } = created.result as { id: string; workspace: string };
    mkdirSync(workspace, { recursive: true });
    writeFileSync(path.join(workspace, 'analysis.ipynb'), '{}');
    writeFileSync(path.join(workspace, 'tidy.sh'), 'rm -rf ~\n');
    chmodSync(path.join(workspace, 'tidy.sh'), 0o755);
    // As the shell shows a conversation it opened (a notebook the OS handed it).
    app.events.emit('conversation.show', { conversationId: id });
    const row = (p: string) => page.locator(`[role="treeitem"][data-path="${p}"]`);
    await expect.poll(() => row('tidy.sh').count()).toBe(1);

    await row('analysis.ipynb').hover();
    await row('analysis.ipynb').getByRole('button', { name: 'Open in the default app analysis.ipynb' }).click();
    await expect.poll(() => opened).toEqual([path.join(realpathSync(workspace), 'analysis.ipynb')]);

    await row('tidy.sh').hover();
    await row('tidy.sh').getByRole('button', { name: 'Open in the default app tidy.sh' }).click();
    await expectText(page.locator('.file-tree [role="alert"]'), /tidy\.sh is a program or script the system could run/);
    expect(opened).toHaveLength(1);

    await page.getByRole('button', { name: 'Notebook', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Export as notebook…' }).click();
    await expect.poll(() => existsSync(target)).toBe(true);
    expect(JSON.parse(readFileSync(target, 'utf8'))).toMatchObject({ nbformat: 4 });
    expect(asked).toHaveLength(1);
    // The window saved through the dialog: the page downloaded nothing.
    expect(downloads).toBe(0);
  });
});
