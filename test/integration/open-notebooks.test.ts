import { EventEmitter } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { App as ElectronApp } from 'electron';
import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src-main/core/bridge/dispatch';
import { MemorySettingsStore } from '../../src-main/core/settings/memory-settings-store';
import { bindNotebookOpening, NotebookOpener, notebookPathsIn } from '../../src-main/electron/open-notebooks';
import { useCoreApps } from '../support/core-apps';
import { SANDBOX_CHOSEN_OFF } from '../support/sandbox-choice';

// Issue 33, item 2: a notebook the OS hands the desktop app (double-click, "Open with…", the command
// line) opens as an imported conversation. The Electron binary cannot run here, so Electron's side is a
// stand-in `app` that fires `open-file` and `second-instance` with the arguments Electron passes; the
// core behind it is the real one (createApp, the dispatcher, notebook.import).

const apps = useCoreApps('oi-open-notebooks-');

const NOTEBOOK = JSON.stringify({
  nbformat: 4,
  nbformat_minor: 5,
  metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
  cells: [
    { id: 'a', cell_type: 'markdown', metadata: {}, source: '# Sales by region' },
    { id: 'b', cell_type: 'code', metadata: {}, source: 'print(6 * 7)', outputs: [], execution_count: null },
  ],
});

function setUp() {
  const core = apps.app(new MemorySettingsStore({ ...SANDBOX_CHOSEN_OFF }));
  const dispatch = createDispatcher(core.handlers);
  const opened: { conversationId: string; fileName: string }[] = [];
  const refused: { fileName: string; message: string }[] = [];
  const target = {
    dispatch,
    opened: (conversationId: string, fileName: string) => void opened.push({ conversationId, fileName }),
    refused: (fileName: string, message: string) => void refused.push({ fileName, message }),
  };
  const conversations = async () => {
    const reply = await dispatch('conversation.list', {}, { transport: 'ipc' });
    if (!reply.ok) throw new Error(reply.error.message);
    return reply.result as { id: string; title: string }[];
  };
  const items = async (conversationId: string) => {
    const reply = await dispatch('conversation.get', { conversationId }, { transport: 'ipc' });
    if (!reply.ok) throw new Error(reply.error.message);
    return (reply.result as { items: { kind: string; code?: string }[] }).items;
  };
  return { target, opened, refused, conversations, items, dir: apps.tempDir() };
}

/** Electron's app as far as the shell's notebook handlers see it: it fires events with Electron's arguments. */
function standInApp() {
  const emitter = new EventEmitter();
  const focused: number[] = [];
  return {
    app: emitter as unknown as Pick<ElectronApp, 'on'>,
    focused,
    openFile(file: string): { prevented: boolean } {
      const event = { prevented: false, preventDefault: () => void (event.prevented = true) };
      emitter.emit('open-file', event, file);
      return event;
    },
    secondInstance(argv: string[], workingDirectory: string): void {
      emitter.emit('second-instance', {}, argv, workingDirectory, {});
    },
  };
}

describe('notebooks the OS hands the desktop app', () => {
  it('imports a notebook named on the first launch’s command line once the core is ready, flags and other files ignored', async () => {
    const { target, opened, refused, conversations, items, dir } = setUp();
    writeFileSync(path.join(dir, 'sales.ipynb'), NOTEBOOK);
    writeFileSync(path.join(dir, 'notes.txt'), 'not a notebook');
    const argv = ['--no-sandbox', 'sales.ipynb', 'notes.txt', '--enable-features=X'];
    expect(notebookPathsIn(argv, dir)).toEqual([path.join(dir, 'sales.ipynb')]);
    const opener = new NotebookOpener();
    // Before the app is ready (as main.ts calls it at start-up): nothing happens yet.
    await opener.open(notebookPathsIn(argv, dir));
    expect(await conversations()).toEqual([]);
    await opener.start(target);
    expect(refused).toEqual([]);
    expect(opened.map((o) => o.fileName)).toEqual(['sales.ipynb']);
    const [conversation] = await conversations();
    expect(conversation?.id).toBe(opened[0]?.conversationId);
    const cells = (await items(opened[0]?.conversationId ?? '')).filter((i) => i.kind === 'cell');
    expect(cells.map((c) => c.code)).toEqual(['print(6 * 7)']);
  });

  it("a second launch focuses the running window and imports its notebook, relative to the second launch's folder", async () => {
    const { target, opened, refused, conversations, dir } = setUp();
    const elsewhere = path.join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(path.join(elsewhere, 'model.ipynb'), NOTEBOOK);
    const opener = new NotebookOpener();
    await opener.start(target);
    const electron = standInApp();
    let focused = 0;
    bindNotebookOpening(electron.app, opener, () => focused++);
    // argv[0] is the second instance's executable; Chromium adds switches of its own.
    electron.secondInstance(['/opt/Open Interpreter Desktop/open-interpreter-desktop', '--allow-file-access', 'model.ipynb'], elsewhere);
    expect(focused).toBe(1);
    await expect.poll(() => opened.length).toBe(1);
    expect(opened[0]?.fileName).toBe('model.ipynb');
    expect(refused).toEqual([]);
    expect((await conversations()).map((c) => c.id)).toEqual([opened[0]?.conversationId]);
    // A second launch with no notebook only brings the window forward.
    electron.secondInstance(['/opt/Open Interpreter Desktop/open-interpreter-desktop'], elsewhere);
    expect(focused).toBe(2);
  });

  it("macOS's open-file is taken (preventDefault) and imported, also when it comes before the app is ready", async () => {
    const { target, opened, dir } = setUp();
    writeFileSync(path.join(dir, 'early.ipynb'), NOTEBOOK);
    writeFileSync(path.join(dir, 'late.ipynb'), NOTEBOOK);
    const opener = new NotebookOpener();
    const electron = standInApp();
    bindNotebookOpening(electron.app, opener, () => undefined);
    expect(electron.openFile(path.join(dir, 'early.ipynb')).prevented).toBe(true);
    await opener.start(target);
    expect(electron.openFile(path.join(dir, 'late.ipynb')).prevented).toBe(true);
    await expect.poll(() => opened.map((o) => o.fileName)).toEqual(['early.ipynb', 'late.ipynb']);
  });

  it('refuses a damaged notebook with the reason, naming the file, and creates nothing', async () => {
    const { target, opened, refused, conversations, dir } = setUp();
    writeFileSync(path.join(dir, 'broken.ipynb'), '{"nbformat": 4, "cells": [');
    writeFileSync(
      path.join(dir, 'wrong.ipynb'),
      JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells: [{ cell_type: 'code' }] }),
    );
    const opener = new NotebookOpener();
    await opener.start(target);
    await opener.open([path.join(dir, 'broken.ipynb'), path.join(dir, 'wrong.ipynb'), path.join(dir, 'missing.ipynb')]);
    expect(opened).toEqual([]);
    expect(refused.map((r) => r.fileName)).toEqual(['broken.ipynb', 'wrong.ipynb', 'missing.ipynb']);
    for (const { fileName, message } of refused) expect(message).toContain(fileName);
    expect(refused[0]?.message).toMatch(/JSON/i);
    expect(refused[1]?.message).toMatch(/cell|source/i);
    expect(await conversations()).toEqual([]);
  });
});
