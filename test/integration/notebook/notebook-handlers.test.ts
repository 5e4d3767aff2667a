import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  eventSchemas,
  type AnyEvent,
  type CellItem,
  type Conversation,
  type EventPayload,
  type RequestInput,
  type RequestName,
  type RequestOutput,
  type SettingsPatch,
} from '@contract';
import type { App } from '../../../src-main/core/app';
import { createTestApp } from '../../support/test-app';
import { createDispatcher, type Dispatcher } from '../../../src-main/core/bridge/dispatch';
import type { RequestContext } from '../../../src-main/core/bridge/handler-table';
import { MemorySecretStore } from '../../../src-main/core/secrets/memory-secret-store';
import { MemorySettingsStore } from '../../../src-main/core/settings/memory-settings-store';
import { SANDBOX_CHOSEN_OFF } from '../../support/sandbox-choice';
import { PNG_1X1 } from './support/conversation-builders';
import { startJupyter, type Jupyter } from '../../support/jupyter';

// The notebook requests through the real dispatcher and app: import creates a conversation (and its
// attachment files) only from a notebook it fully understood, export writes what nbformat accepts,
// and re-run runs the cells in the app's own execution engine with progress events.

const WS: RequestContext = { transport: 'websocket' };
const IPC: RequestContext = { transport: 'ipc' };

type Cell = Record<string, unknown>;

/** A notebook as Jupyter writes one (no app metadata). */
function jupyterNotebook(cells: Cell[], language = 'python'): string {
  return `${JSON.stringify(
    {
      nbformat: 4,
      nbformat_minor: 5,
      metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language }, language_info: { name: language } },
      cells: cells.map((c, i) => ({ id: `cell-${i}`, metadata: {}, ...c })),
    },
    null,
    1,
  )}\n`;
}

const markdown = (source: string, extra: Cell = {}): Cell => ({ cell_type: 'markdown', source, ...extra });
const code = (source: string, outputs: unknown[] = [], count: number | null = null): Cell => ({
  cell_type: 'code',
  source,
  outputs,
  execution_count: count,
});

const SALES = jupyterNotebook([
  markdown('# Sales report\n\nThe chart: ![chart](attachment:chart.png)', { attachments: { 'chart.png': { 'image/png': PNG_1X1 } } }),
  code('print("rows: 3")', [{ output_type: 'stream', name: 'stdout', text: ['rows: 3\n'] }], 1),
  code('plot()', [{ output_type: 'display_data', data: { 'image/png': PNG_1X1, 'text/plain': ['<Figure>'] }, metadata: {} }], 2),
]);

describe('notebook requests', () => {
  let jupyter: Jupyter;
  let app: App;
  let dispatch: Dispatcher;
  let dataDir: string;
  let settings: MemorySettingsStore;
  let events: AnyEvent[];

  beforeAll(() => {
    jupyter = startJupyter();
  });
  afterAll(() => jupyter?.dispose());

  const start = (patch: SettingsPatch = {}) => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'oi-nb-handlers-'));
    // The install question's words are checked unsandboxed (a sandboxed install names its own --prefix).
    settings = new MemorySettingsStore({ exec: { timeoutMs: 30_000 }, ...SANDBOX_CHOSEN_OFF, ...patch });
    app = createTestApp({ dataDir, settings, secrets: new MemorySecretStore() });
    dispatch = createDispatcher(app.handlers);
    events = [];
    app.events.subscribe((event) => events.push(event));
  };
  beforeEach(() => start());
  afterEach(async () => {
    await app.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function call<N extends RequestName>(name: N, input: RequestInput<N>, ctx: RequestContext = WS): Promise<RequestOutput<N>> {
    const reply = await dispatch(name, input, ctx);
    if (!reply.ok) throw new Error(reply.error.message);
    return reply.result as RequestOutput<N>;
  }

  async function refusal(name: RequestName, input: unknown, ctx: RequestContext = WS): Promise<string> {
    const reply = await dispatch(name, input, ctx);
    if (reply.ok) throw new Error(`${name} was expected to fail`);
    return reply.error.message;
  }

  /** Everything on disk that an import could have created. */
  const stored = () => ({
    conversations: existsSync(path.join(dataDir, 'conversations')) ? readdirSync(path.join(dataDir, 'conversations')) : [],
    workspaces: existsSync(path.join(dataDir, 'workspaces')) ? readdirSync(path.join(dataDir, 'workspaces')) : [],
  });

  /** Resolves with the notebook.rerun-done event of the conversation (already sent or still to come). */
  function rerunDone(conversationId: string): Promise<EventPayload<'notebook.rerun-done'>> {
    return new Promise((resolve) => {
      const find = () =>
        events.find(
          (e): e is Extract<AnyEvent, { name: 'notebook.rerun-done' }> =>
            e.name === 'notebook.rerun-done' && e.payload.conversationId === conversationId,
        );
      const found = find();
      if (found) return resolve(found.payload);
      const off = app.events.subscribe(() => {
        const later = find();
        if (later) {
          off();
          resolve(later.payload);
        }
      });
    });
  }

  const importText = (text: string, fileName = 'sales.ipynb') => call('notebook.import', { fileName, source: { text } });
  const cellsOf = (conv: Conversation) => conv.items.filter((i): i is CellItem => i.kind === 'cell');

  it('imports a notebook as a new conversation with its cells, outputs and attachment files', async () => {
    const { conversation, warnings } = await importText(SALES);
    expect(warnings).toEqual([]);
    expect(conversation.title).toBe('Sales report');
    expect(conversation.items.map((i) => i.kind)).toEqual(['assistant', 'cell', 'cell']);
    const [printCell, plotCell] = cellsOf(conversation);
    expect(printCell).toMatchObject({ language: 'python', code: 'print("rows: 3")', status: 'done', executionCount: 1 });
    expect(printCell?.outputs).toEqual([{ output_type: 'stream', name: 'stdout', text: 'rows: 3\n' }]);
    expect(plotCell?.outputs[0]).toMatchObject({ output_type: 'display_data', data: { 'image/png': PNG_1X1 } });

    // The markdown image now points at a file in the new conversation's workspace.
    const prose = conversation.items[0]?.kind === 'assistant' ? conversation.items[0].text : '';
    const link = /!\[chart\]\((attachments\/[^)]+)\)/.exec(prose)?.[1];
    expect(link).toBeDefined();
    expect(readFileSync(path.join(conversation.workspace, link!))).toEqual(Buffer.from(PNG_1X1, 'base64'));

    expect(await call('conversation.get', { conversationId: conversation.id })).toEqual(conversation);
    expect((await call('conversation.list', {})).map((c) => c.id)).toEqual([conversation.id]);
    expect(events.some((e) => e.name === 'conversation.updated' && e.payload.summary.id === conversation.id)).toBe(true);
  });

  it('imports uploaded bytes and, in the desktop app, a file by its path', async () => {
    const fromBytes = await call('notebook.import', {
      fileName: 'sales.ipynb',
      source: { dataBase64: Buffer.from(SALES).toString('base64') },
    });
    expect(cellsOf(fromBytes.conversation)).toHaveLength(2);

    const file = path.join(dataDir, 'on-disk.ipynb');
    writeFileSync(file, SALES);
    const fromPath = await call('notebook.import', { fileName: 'on-disk.ipynb', source: { sourcePath: file } }, IPC);
    expect(cellsOf(fromPath.conversation)).toHaveLength(2);
    // A page in a browser has no business naming files on this machine.
    expect(await refusal('notebook.import', { fileName: 'x.ipynb', source: { sourcePath: file } })).toMatch(
      /only available in the desktop app/,
    );
  });

  it('refuses bad notebooks with an error naming the file and the problem, creating nothing', async () => {
    const broken = jupyterNotebook([
      code('x = 1'),
      { cell_type: 'code', source: 'y', outputs: [{ output_type: 'stream', name: 'stdout', text: 5 }], execution_count: null },
    ]);
    const cases: Array<[unknown, RegExp]> = [
      [{ text: '{"nbformat": 4, "cells": [' }, /^notebook\.import: bad\.ipynb: The file is not valid JSON: .* at line 1, column \d+/],
      [{ text: '{"cells": []}' }, /bad\.ipynb: The file is JSON but not a Jupyter notebook: it has no "nbformat" field/],
      [
        { text: '{"nbformat": 5, "nbformat_minor": 0, "metadata": {}, "cells": []}' },
        /bad\.ipynb: This notebook is nbformat 5; the app reads versions 4\.0–4\.5/,
      ],
      [{ text: broken }, /bad\.ipynb: The notebook breaks the nbformat 4 rules: cell 1 \(code\), field outputs\[0\]\.text/],
      [
        { dataBase64: Buffer.from([0x7b, 0x0a, 0x00, 0x01]).toString('base64') },
        /bad\.ipynb: This file holds binary data \(a NUL byte at byte 2\)/,
      ],
      [{ dataBase64: 'not base64!' }, /bad\.ipynb: the uploaded bytes are not valid base64/],
      [{ sourcePath: path.join(dataDir, 'missing.ipynb') }, /bad\.ipynb: cannot read the notebook .*missing\.ipynb: no such file/],
    ];
    for (const [source, message] of cases) {
      expect(await refusal('notebook.import', { fileName: 'bad.ipynb', source }, IPC)).toMatch(message);
    }
    expect(await refusal('notebook.import', { fileName: 'bad.ipynb', source: { text: '{}', dataBase64: 'e30=' } })).toMatch(
      /invalid-input|source/,
    );
    expect(stored()).toEqual({ conversations: [], workspaces: [] });
    expect(events.filter((e) => e.name === 'conversation.updated')).toEqual([]);
  });

  it('refuses a notebook over the size limit in settings, by path before reading it', async () => {
    await call('settings.set', { notebookMaxBytes: 2048 });
    const big = jupyterNotebook([code(`print("${'x'.repeat(3000)}")`)]);
    expect(await refusal('notebook.import', { fileName: 'big.ipynb', source: { text: big } })).toMatch(
      /big\.ipynb: The notebook is 3\.\d KB, over the import limit of 2\.0 KB\. Raise the limit in settings to import it\./,
    );
    const file = path.join(dataDir, 'big.ipynb');
    writeFileSync(file, big);
    expect(await refusal('notebook.import', { fileName: 'big.ipynb', source: { sourcePath: file } }, IPC)).toMatch(
      /The notebook "big\.ipynb" is 3\.\d KB, over the import limit of 2\.0 KB/,
    );
    expect(stored()).toEqual({ conversations: [], workspaces: [] });

    await call('settings.set', { notebookMaxBytes: 200 * 1024 * 1024 });
    expect(cellsOf((await importText(big)).conversation)).toHaveLength(1);
  });

  it('exports a conversation as a notebook nbformat.validate accepts, named after its title', async () => {
    const { conversation } = await importText(SALES);
    const exported = await call('notebook.export', { conversationId: conversation.id });
    expect(exported.fileName).toBe('Sales report.ipynb');
    expect(await jupyter.validate([exported.text], { exact: true })).toEqual([null]);
    const nb = JSON.parse(exported.text) as {
      nbformat_minor: number;
      cells: Array<{ cell_type: string; outputs?: unknown[] }>;
      metadata: Record<string, unknown>;
    };
    expect(nb.nbformat_minor).toBe(5);
    expect(nb.cells.map((c) => c.cell_type)).toEqual(['markdown', 'code', 'code']);
    // Written back as it came in: the app adds nothing of its own to a notebook it only imported…
    expect(nb.metadata).toEqual(JSON.parse(SALES).metadata);
    // …until the conversation holds something the app made.
    const live = await app.context.agent.open(conversation.id);
    live.conv.items.push({
      kind: 'notice',
      id: 'added-here',
      level: 'info',
      text: 'added in the app',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    const withNotice = JSON.parse((await call('notebook.export', { conversationId: conversation.id })).text) as typeof nb;
    expect(withNotice.metadata.oi).toMatchObject({ appVersion: 'test', provider: 'openai', conversationId: conversation.id });

    // An empty conversation is a valid (empty) notebook too.
    const empty = await call('conversation.create', { title: 'a/b: "c"' });
    const emptyExport = await call('notebook.export', { conversationId: empty.id });
    expect(emptyExport.fileName).toBe('a b c.ipynb');
    expect(await jupyter.validate([emptyExport.text], { exact: true })).toEqual([null]);
  });

  it('never changes another conversation’s files in a shared workspace: a taken attachment name gets a new one', async () => {
    const shared = mkdtempSync(path.join(os.tmpdir(), 'oi-nb-shared-'));
    try {
      await call('settings.set', { workspaceRoot: shared });
      const first = (await importText(SALES)).conversation;
      const firstLink = /\((attachments\/[^)]+)\)/.exec(first.items[0]?.kind === 'assistant' ? first.items[0].text : '')?.[1] ?? '';
      writeFileSync(path.join(shared, firstLink), 'the first conversation’s file');

      const second = (await importText(SALES)).conversation;
      const secondLink = /\((attachments\/[^)]+)\)/.exec(second.items[0]?.kind === 'assistant' ? second.items[0].text : '')?.[1] ?? '';
      expect(secondLink).not.toBe(firstLink);
      expect(readFileSync(path.join(shared, firstLink), 'utf8')).toBe('the first conversation’s file');
      expect(readFileSync(path.join(shared, secondLink))).toEqual(Buffer.from(PNG_1X1, 'base64'));
    } finally {
      rmSync(shared, { recursive: true, force: true });
    }
  });

  it('leaves nothing behind when an import fails after its conversation was begun', async () => {
    // Nested deeper than the bound: refused with the cell named, before anything is created.
    const deep = SALES.replace('"rows: 3\\n"', '['.repeat(20_000) + ']'.repeat(20_000));
    expect(await refusal('notebook.import', { fileName: 'deep.ipynb', source: { text: deep } })).toMatch(
      /deep\.ipynb: The notebook nests JSON more than 512 levels deep in cell 1 \(code\), field outputs\[0\]\.text/,
    );
    expect(stored()).toEqual({ conversations: [], workspaces: [] });

    // The conversation cannot be saved (its folder is a file): no workspace folder stays.
    writeFileSync(path.join(dataDir, 'conversations'), 'not a folder');
    expect(await refusal('notebook.import', { fileName: 'sales.ipynb', source: { text: SALES } })).toMatch(
      /sales\.ipynb|ENOTDIR|EEXIST|not a directory/,
    );
    rmSync(path.join(dataDir, 'conversations'));
    expect(stored()).toEqual({ conversations: [], workspaces: [] });

    // A shared workspace whose attachments/ leads elsewhere: the import stops, and of what it wrote
    // nothing stays, while the other conversation's files are untouched.
    const shared = mkdtempSync(path.join(os.tmpdir(), 'oi-nb-shared-'));
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'oi-nb-elsewhere-'));
    try {
      await call('settings.set', { workspaceRoot: shared });
      writeFileSync(path.join(shared, 'theirs.txt'), 'another conversation’s file');
      symlinkSync(elsewhere, path.join(shared, 'attachments'));
      expect(await refusal('notebook.import', { fileName: 'sales.ipynb', source: { text: SALES } })).toMatch(
        /attachments\/ in .* leads outside the workspace/,
      );
      expect(readdirSync(shared).sort()).toEqual(['attachments', 'theirs.txt']);
      expect(readdirSync(elsewhere)).toEqual([]);
      expect(stored().conversations).toEqual([]);
    } finally {
      rmSync(shared, { recursive: true, force: true });
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('re-runs the cells in the live session with progress, stops at the first error and continues after it', async () => {
    const { conversation } = await importText(
      jupyterNotebook([
        code('x = 20'),
        code('print(x + 1)', [{ output_type: 'stream', name: 'stdout', text: 'stale\n' }], 2),
        code('1/0'),
        code('print("after", x)'),
      ]),
      'rerun.ipynb',
    );
    const conversationId = conversation.id;
    const ids = cellsOf(conversation).map((c) => c.id);

    expect(await call('notebook.rerun', { conversationId })).toEqual({ n: 4, startAt: 0 });
    const stopped = await rerunDone(conversationId);
    expect(stopped).toMatchObject({ outcome: 'stopped', n: 4, stoppedAt: { k: 3, cellId: ids[2], status: 'failed' }, nextIndex: 3 });
    // Events are checked against the contract in tests rather than on every send.
    for (const e of events) expect(eventSchemas()[e.name].safeParse(e.payload).error, e.name).toBeUndefined();
    const progress = events.flatMap((e) =>
      e.name === 'notebook.rerun-progress' ? [`${e.payload.k}/${e.payload.n} ${e.payload.status}`] : [],
    );
    expect(progress).toEqual(['1/4 running', '1/4 done', '2/4 running', '2/4 done', '3/4 running', '3/4 failed']);
    // The chat sees the runs like any other: running, then the new outputs.
    expect(events.filter((e) => e.name === 'cell.running').map((e) => (e.payload as { cellId: string }).cellId)).toEqual(ids.slice(0, 3));

    const afterStop = cellsOf(await call('conversation.get', { conversationId }));
    expect(JSON.stringify(afterStop[1]?.outputs)).toContain('21');
    expect(JSON.stringify(afterStop[1]?.outputs)).not.toContain('stale');
    expect(afterStop[2]?.status).toBe('failed');

    events.length = 0;
    expect(await call('notebook.rerun', { conversationId, startAt: 3 })).toEqual({ n: 4, startAt: 3 });
    expect(await rerunDone(conversationId)).toMatchObject({ outcome: 'completed', stoppedAt: null, nextIndex: null });
    const done = cellsOf(await call('conversation.get', { conversationId }));
    expect(JSON.stringify(done[3]?.outputs)).toContain('after 20');
    // Saved, not only held in memory.
    const onDisk = JSON.parse(readFileSync(path.join(dataDir, 'conversations', `${conversationId}.json`), 'utf8')) as Conversation;
    expect(JSON.stringify(cellsOf(onDisk)[3]?.outputs)).toContain('after 20');
    // The open window is told the conversation's last activity moved (agent/conversation-changes.ts).
    const changed = events.flatMap((e) =>
      e.name === 'conversation.changed' && e.payload.conversationId === conversationId ? [e.payload] : [],
    );
    expect(changed.at(-1)?.change).toEqual({ updatedAt: onDisk.updatedAt });
  });

  it("never waits for an install question forever: unanswered, it is a no after the run's time limit", async () => {
    await app.dispose();
    start({ exec: { timeoutMs: 2_000, autoInstall: 'ask' } });
    const { conversation } = await importText(
      jupyterNotebook([code('import oi_package_nobody_installs\nprint("never")'), code('print("not reached")')]),
      'needs-a-package.ipynb',
    );
    const conversationId = conversation.id;
    await call('notebook.rerun', { conversationId });
    // Nobody answers: the re-run ends by itself, at that cell, and says why.
    expect(await rerunDone(conversationId)).toMatchObject({ outcome: 'stopped', stoppedAt: { k: 1, status: 'failed' } });
    const asked = events.find((e) => e.name === 'install.awaiting-approval');
    expect(asked?.payload).toMatchObject({ conversationId, packages: ['oi_package_nobody_installs'] });
    const questionId = (asked?.payload as { questionId: string }).questionId;
    expect(events.find((e) => e.name === 'install.answered')?.payload).toEqual({ conversationId, questionId, install: false });
    const [first, second] = cellsOf(await call('conversation.get', { conversationId }));
    expect(first?.resultForModel).toMatch(
      /Nobody answered the question to run `[^`]*pip install oi_package_nobody_installs` within 2 seconds \(the run's time limit\)/,
    );
    expect(first?.resultForModel).not.toContain('The user declined');
    expect(second?.outputs).toEqual([]);
  });

  it('stops a re-run on request, refuses a second one and chat meanwhile, and explains bad requests', async () => {
    const { conversation } = await importText(jupyterNotebook([code('import time\ntime.sleep(30)'), code('print("never")')]), 'slow.ipynb');
    const conversationId = conversation.id;
    await call('notebook.rerun', { conversationId });
    expect(await refusal('notebook.rerun', { conversationId })).toMatch(/already re-running in this conversation/);
    // The agent would run code in the same sessions: chatting waits for the re-run.
    expect(await refusal('chat.send', { conversationId, text: 'hello' })).toMatch(/cells are being re-run/);
    await new Promise<void>((resolve) => {
      const off = app.events.subscribe((e) => {
        if (e.name === 'notebook.rerun-progress' && e.payload.status === 'running') {
          off();
          resolve();
        }
      });
      if (events.some((e) => e.name === 'notebook.rerun-progress')) resolve();
    });
    await call('notebook.rerun-stop', { conversationId });
    expect(await rerunDone(conversationId)).toMatchObject({ outcome: 'cancelled', nextIndex: 1 });
    expect(events.some((e) => e.name === 'notebook.rerun-progress' && e.payload.k === 2)).toBe(false);

    expect(await refusal('notebook.rerun-stop', { conversationId })).toMatch(/no cells are re-running/);
    expect(await refusal('notebook.rerun', { conversationId, startAt: 2 })).toMatch(/startAt 2 is past the last cell: there are 2 cells/);
    const empty = await call('conversation.create', {});
    expect(await refusal('notebook.rerun', { conversationId: empty.id })).toMatch(/no code cells to re-run/);
  });
});
