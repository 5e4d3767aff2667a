import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Dialog, SaveDialogOptions, Shell } from 'electron';
import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../../src-main/core/bridge/dispatch';
import { MemorySettingsStore } from '../../../src-main/core/settings/memory-settings-store';
import { notebookSaveAs } from '../../../src-main/electron/notebook-save-as';
import { openWithHandler } from '../../../src-main/electron/open-with';
import { useCoreApps } from '../../support/core-apps';

// Issue 33, item 2: "Open with…" of the file tree's files and Save As for a notebook export, through the
// OS. The Electron binary cannot run here, so Electron's shell and dialog are stand-ins that record what
// they were asked (Electron's types only); the core behind them is the real one, reached through the
// dispatcher as the window's IPC reaches it. The renderer names a workspace path or a conversation,
// never a place on disk: the attacks below are a renderer trying to.

const apps = useCoreApps('oi-desktop-dialogs-');
const IPC = { transport: 'ipc' as const };

/** shell.openPath as Electron answers it: '' when the OS opened the file. */
function standInShell() {
  const opened: string[] = [];
  const shell = { openPath: async (file: string) => (opened.push(file), '') } as Pick<Shell, 'openPath'>;
  return { shell, opened };
}

/** dialog.showSaveDialog answering with `answer` (null: the person cancelled); records what it was shown. */
function standInDialog(answer: string | null) {
  const shown: SaveDialogOptions[] = [];
  const showSaveDialog = async (...args: unknown[]) => {
    shown.push(args.at(-1) as SaveDialogOptions);
    return answer ? { canceled: false, filePath: answer } : { canceled: true, filePath: '' };
  };
  return { dialog: { showSaveDialog } as unknown as Pick<Dialog, 'showSaveDialog'>, shown };
}

async function setUp(platform: NodeJS.Platform = 'linux', answer: string | null = null) {
  const core = apps.app(new MemorySettingsStore());
  const conv = await core.handlers['conversation.create']({}, IPC);
  const workspace = realpathSync(conv.workspace);
  mkdirSync(workspace, { recursive: true });
  const { shell, opened } = standInShell();
  const launched: string[][] = [];
  const { dialog, shown } = standInDialog(answer);
  const downloads = apps.tempDir();
  const workspaceOf = async (id: string) => (await core.context.agent.snapshot(id)).workspace;
  const handlers = {
    ...core.handlers,
    'workspace.open-with': openWithHandler(workspaceOf, { shell, platform, launch: async (p, args) => void launched.push([p, ...args]) }),
    'notebook.save-as': notebookSaveAs({
      dialog,
      window: () => null,
      suggestedFolder: () => downloads,
      exportNotebook: async (conversationId) => {
        const reply = await dispatch('notebook.export', { conversationId }, IPC);
        if (!reply.ok) throw new Error(reply.error.message);
        return reply.result as { fileName: string; text: string };
      },
    }),
  };
  const dispatch = createDispatcher(handlers);
  return { core, dispatch, conversationId: conv.id, workspace, opened, launched, shown, downloads, outside: apps.tempDir() };
}

describe('"Open with…" and Save As in the desktop app', () => {
  it('opens a workspace notebook or file in its default app, and on Windows in the OS’s Open with chooser', async () => {
    const { dispatch, conversationId, workspace, opened } = await setUp('linux');
    mkdirSync(path.join(workspace, 'data'));
    writeFileSync(path.join(workspace, 'analysis.ipynb'), '{}');
    writeFileSync(path.join(workspace, 'data', 'sales.csv'), 'region,total\n');
    // A link inside the workspace opens its target, so the OS sees the name that was checked.
    symlinkSync('data/sales.csv', path.join(workspace, 'latest.csv'));
    for (const rel of ['analysis.ipynb', 'data/sales.csv', 'latest.csv'])
      expect(await dispatch('workspace.open-with', { conversationId, path: rel }, IPC)).toEqual({
        ok: true,
        result: { opened: true, chooser: false },
      });
    expect(opened).toEqual([
      path.join(workspace, 'analysis.ipynb'),
      path.join(workspace, 'data', 'sales.csv'),
      path.join(workspace, 'data', 'sales.csv'),
    ]);

    const win = await setUp('win32');
    writeFileSync(path.join(win.workspace, 'analysis.ipynb'), '{}');
    expect(await win.dispatch('workspace.open-with', { conversationId: win.conversationId, path: 'analysis.ipynb' }, IPC)).toMatchObject({
      ok: true,
      result: { chooser: true },
    });
    expect(win.launched).toEqual([['rundll32.exe', 'shell32.dll,OpenAs_RunDLL', path.join(win.workspace, 'analysis.ipynb')]]);
    expect(win.opened).toEqual([]);
  });

  it('saves the exported notebook where the Save dialog chose, whole; nothing when the person cancels', async () => {
    const target = path.join(apps.tempDir(), 'Sales by region.ipynb');
    const { dispatch, conversationId, shown, downloads } = await setUp('linux', target);
    await dispatch('conversation.rename', { conversationId, title: 'Sales by region' }, IPC);
    expect(await dispatch('notebook.save-as', { conversationId }, IPC)).toEqual({ ok: true, result: { savedTo: target } });
    const exported = await dispatch('notebook.export', { conversationId }, IPC);
    expect(readFileSync(target, 'utf8')).toBe((exported as { result: { text: string } }).result.text);
    expect(JSON.parse(readFileSync(target, 'utf8'))).toMatchObject({ nbformat: 4 });
    expect(shown[0]).toMatchObject({ defaultPath: path.join(downloads, 'Sales by region.ipynb'), filters: [{ extensions: ['ipynb'] }] });
    // No temporary file left beside it.
    expect(readdirSync(path.dirname(target))).toEqual(['Sales by region.ipynb']);

    const cancelled = await setUp('linux', null);
    expect(await cancelled.dispatch('notebook.save-as', { conversationId: cancelled.conversationId }, IPC)).toEqual({
      ok: true,
      result: { savedTo: null },
    });
    expect(cancelled.shown).toHaveLength(1);
  });

  it('refuses both in browser mode, saying what the page does instead', async () => {
    const core = apps.app(new MemorySettingsStore());
    const dispatch = createDispatcher(core.handlers);
    const ws = { transport: 'websocket' as const };
    const conv = await core.handlers['conversation.create']({}, ws);
    expect(await dispatch('notebook.save-as', { conversationId: conv.id }, ws)).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/no Save dialog in browser mode: Export downloads the notebook instead/) },
    });
    expect(await dispatch('workspace.open-with', { conversationId: conv.id, path: 'a.csv' }, ws)).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/only in the desktop app; in browser mode, download it instead/) },
    });
  });
});

describe('attacks: a renderer naming what to open or where to write', () => {
  /** What code in the workspace (sandboxed or not) could leave there for the person to open. */
  function plant(workspace: string, outside: string) {
    writeFileSync(path.join(outside, 'secret.txt'), 'not the workspace’s');
    symlinkSync(path.join(outside, 'secret.txt'), path.join(workspace, 'notes.txt'));
    writeFileSync(path.join(workspace, 'report'), '#!/bin/sh\necho owned\n');
    chmodSync(path.join(workspace, 'report'), 0o755);
    writeFileSync(path.join(workspace, 'Report.desktop'), '[Desktop Entry]\nType=Application\nExec=sh -c "echo owned"\n');
    writeFileSync(path.join(workspace, 'invoice.pdf.exe'), 'MZ');
    writeFileSync(path.join(workspace, 'setup.bat.'), 'echo owned');
    mkdirSync(path.join(workspace, 'build.app'));
    return {
      escapes: [path.relative(workspace, path.join(outside, 'secret.txt')), path.join(outside, 'secret.txt'), 'notes.txt'],
      programs: ['report', 'Report.desktop', 'invoice.pdf.exe', 'setup.bat.', 'build.app'],
    };
  }

  it('opens nothing outside the workspace, through a link, or that the system could run; each refusal names the file', async () => {
    const { dispatch, conversationId, workspace, outside, opened, launched } = await setUp('linux');
    const { escapes, programs } = plant(workspace, outside);
    const refusal = async (rel: string) => {
      const reply = await dispatch('workspace.open-with', { conversationId, path: rel }, IPC);
      return reply.ok ? 'opened' : reply.error.message;
    };
    for (const rel of escapes)
      expect(await refusal(rel), rel).toMatch(
        /goes above the workspace|is an absolute path|symbolic link to a place outside the workspace/,
      );
    for (const rel of programs)
      expect(await refusal(rel)).toMatch(
        /^workspace.open-with: (report is marked executable|\S+ is a program or script the system could run|"build\.app" is not a file)/,
      );
    expect(opened).toEqual([]);
    expect(launched).toEqual([]);
  });

  it('twin: the same handler with a resolver that only joins the path opens every one of them', async () => {
    const { core, conversationId, workspace, outside } = await setUp('linux');
    const { escapes, programs } = plant(workspace, outside);
    const { shell, opened } = standInShell();
    const workspaceOf = async (id: string) => (await core.context.agent.snapshot(id)).workspace;
    const naive = openWithHandler(workspaceOf, { shell, platform: 'linux', resolve: async (root, rel) => path.resolve(root, rel) });
    const dispatch = createDispatcher({ ...core.handlers, 'workspace.open-with': naive });
    for (const rel of [...escapes, ...programs])
      expect(await dispatch('workspace.open-with', { conversationId, path: rel }, IPC)).toMatchObject({ ok: true });
    expect(opened).toContain(path.join(outside, 'secret.txt'));
    expect(opened).toContain(path.join(workspace, 'Report.desktop'));
  });

  it('writes only where the dialog chose: a request naming a path is refused before any dialog, and a title cannot move the suggestion', async () => {
    const chosen = path.join(apps.tempDir(), 'chosen.ipynb');
    const { dispatch, conversationId, shown, downloads, outside } = await setUp('linux', chosen);
    const planted = path.join(outside, 'autostart.desktop');
    for (const extra of [{ path: planted }, { filePath: planted }, { defaultPath: planted }])
      expect(await dispatch('notebook.save-as', { conversationId, ...extra }, IPC)).toMatchObject({
        ok: false,
        error: { code: 'invalid-input' },
      });
    expect(shown).toEqual([]);
    expect(existsSync(planted)).toBe(false);

    // A title the model or an imported notebook gave the conversation, pointing out of Downloads.
    const title = '../../.config/autostart/evil';
    await dispatch('conversation.rename', { conversationId, title }, IPC);
    expect(await dispatch('notebook.save-as', { conversationId }, IPC)).toMatchObject({ ok: true, result: { savedTo: chosen } });
    const suggested = shown[0]?.defaultPath ?? '';
    expect(path.dirname(suggested)).toBe(downloads);

    // Twin: the same handler given the raw title as the file name suggests a place outside Downloads.
    const twin = standInDialog(null);
    await notebookSaveAs({
      dialog: twin.dialog,
      window: () => null,
      suggestedFolder: () => downloads,
      exportNotebook: async () => ({ fileName: `${title}.ipynb`, text: '{}' }),
    })({ conversationId }, IPC);
    expect(path.dirname(twin.shown[0]?.defaultPath ?? '')).not.toBe(downloads);
    expect(twin.shown[0]?.defaultPath).toBe(path.resolve(downloads, title + '.ipynb'));
  });
});
