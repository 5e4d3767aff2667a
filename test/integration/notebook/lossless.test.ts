import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssistantItem, CellItem, Conversation, RequestInput, RequestName, RequestOutput } from '@contract';
import type { App } from '../../../src-main/core/app';
import { createTestApp } from '../../support/test-app';
import { createDispatcher, type Dispatcher } from '../../../src-main/core/bridge/dispatch';
import { exportNotebook, serializeNotebook } from '../../../src-main/core/notebook/ipynb-export';
import { importNotebook } from '../../../src-main/core/notebook/ipynb-import';
import { MemorySecretStore } from '../../../src-main/core/secrets/memory-secret-store';
import { MemorySettingsStore } from '../../../src-main/core/settings/memory-settings-store';
import { startJupyter, type Jupyter } from '../../support/jupyter';
import { notebookDifferences, realShapes } from './support/real-shapes';

// The lossless round trip: notebooks of two dozen real shapes, made and executed by real Jupyter,
// go through the app's import (saved as a conversation on disk) and export, and come out equal to
// what went in, field by field, as nbformat reads both. Then the same after the app changed
// something: only what changed differs.

const META = { appVersion: '0.1.0', provider: 'openai', model: 'm' };

describe('lossless notebook round trip', () => {
  let jupyter: Jupyter;
  let shapes: Record<string, string>;
  let app: App;
  let dispatch: Dispatcher;
  let dataDir: string;

  beforeAll(async () => {
    jupyter = startJupyter({ forkedKernels: true });
    shapes = await realShapes(jupyter);
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'oi-nb-lossless-'));
    app = createTestApp({
      dataDir,
      settings: new MemorySettingsStore({}),
      secrets: new MemorySecretStore(),
    });
    dispatch = createDispatcher(app.handlers);
  }, 600_000);
  afterAll(async () => {
    await app?.dispose();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    jupyter?.dispose();
  });

  async function call<N extends RequestName>(name: N, input: RequestInput<N>): Promise<RequestOutput<N>> {
    const reply = await dispatch(name, input, { transport: 'websocket' });
    if (!reply.ok) throw new Error(reply.error.message);
    return reply.result as RequestOutput<N>;
  }

  it('has the shapes the issue names, executed by a real kernel', () => {
    const names = Object.keys(shapes);
    expect(names.length).toBeGreaterThanOrEqual(20);
    for (const wanted of [
      'plots',
      'pandas_html',
      'widgets',
      'plotly',
      'latex',
      'tags',
      'attachments',
      'raw_formats',
      'cleared',
      'r_kernel',
      'julia_kernel',
    ]) {
      expect(names).toContain(wanted);
    }
    const plots = JSON.parse(shapes.plots!) as {
      cells: Array<{ outputs?: Array<{ output_type: string; data?: Record<string, unknown> }> }>;
    };
    expect(plots.cells.flatMap((c) => c.outputs ?? []).some((o) => o.data?.['image/png'] !== undefined)).toBe(true);
  });

  it('imports every shape and exports it back equal, field by field, through the app and its saved conversation', async () => {
    const names = Object.keys(shapes);
    const exported: Array<[string, string]> = [];
    for (const name of names) {
      const { conversation, warnings } = await call('notebook.import', { fileName: `${name}.ipynb`, source: { text: shapes[name]! } });
      expect({ name, warnings }).toEqual({ name, warnings: [] });
      // From the file on disk, as a later session of the app would read it.
      const saved = await call('conversation.get', { conversationId: conversation.id });
      expect(saved).toEqual(conversation);
      const { text } = await call('notebook.export', { conversationId: conversation.id });
      exported.push([shapes[name]!, text]);
    }
    const differences = await notebookDifferences(jupyter, exported);
    expect(Object.fromEntries(names.map((name, i) => [name, differences[i]]))).toEqual(Object.fromEntries(names.map((name) => [name, []])));
    // Jupyter accepts each export exactly as written.
    expect(
      await jupyter.validate(
        exported.map(([, text]) => text),
        { exact: true },
      ),
    ).toEqual(names.map(() => null));
    // Two dozen imports and exports through the app, and two Pythons: past 60 s at a load of ~50.
  }, 300_000);

  it('keeps what the import changed for display only: attachment links are files in the app, attachments in the file', () => {
    const imported = importNotebook(shapes.attachments!, { maxBytes: 1e9, fileName: 'attachments.ipynb' });
    const prose = imported.conversationItems.filter((i): i is AssistantItem => i.kind === 'assistant');
    expect(prose[0]!.text).toMatch(/!\[pasted\]\(attachments\/[^)]+-image\.png\)/);
    expect(prose[0]!.text).toMatch(/!\[b\]\(attachments\/[^)]+-blue_dot\.png\)/);
    expect(imported.files.map((f) => f.mime)).toEqual(['image/png', 'image/png', 'image/svg+xml']);
    const nb = exportNotebook(conversationOf(imported), META);
    const first = nb.cells[0]!;
    expect(joined(first.source)).toContain('![pasted](attachment:image.png)');
    expect(Object.keys((first as { attachments?: object }).attachments ?? {}).sort()).toEqual(['blue dot.png', 'image.png']);
  });

  it('writes never-run code cells back as code cells, a 4.4 notebook as 4.4, and other kernels untouched', () => {
    const cleared = importNotebook(shapes.cleared!, { maxBytes: 1e9 });
    const cells = cleared.conversationItems.filter((i): i is CellItem => i.kind === 'cell');
    expect(cells.map((c) => [c.status, c.approval])).toEqual(cells.map(() => ['skipped', null]));
    expect(exportNotebook(conversationOf(cleared), META).cells.map((c) => c.cell_type)).toEqual(['markdown', 'code', 'code', 'code']);

    const old = exportNotebook(conversationOf(importNotebook(shapes.v4_4!, { maxBytes: 1e9 })), META);
    expect(old.nbformat_minor).toBe(4);
    expect(old.cells.every((c) => !('id' in c))).toBe(true);

    for (const [name, kernel] of [
      ['julia_kernel', 'julia-1.9'],
      ['r_kernel', 'ir'],
    ] as const) {
      const nb = exportNotebook(conversationOf(importNotebook(shapes[name]!, { maxBytes: 1e9 })), META);
      expect(nb.metadata.kernelspec?.name).toBe(kernel);
    }
  });

  it('keeps a magic with options as Python for IPython, and a plain language magic as it was written', () => {
    const magics = importNotebook(shapes.magics!, { maxBytes: 1e9 });
    const cells = magics.conversationItems.filter((i): i is CellItem => i.kind === 'cell');
    const byStart = (start: string) => cells.find((c) => (c.jupyter?.magic ?? '') + c.code === start || c.code.startsWith(start))!;
    expect(byStart('%%bash --out bash_out')).toMatchObject({
      language: 'python',
      code: '%%bash --out bash_out\necho from bash with arguments',
    });
    expect(byStart('%%sh\necho plain sh')).toMatchObject({ language: 'shell', code: 'echo plain sh' });
    expect(byStart('%%script bash\necho via script')).toMatchObject({ language: 'shell', code: 'echo via script' });
    // Perl has no session in the app: IPython's %%perl runs it, as in Jupyter.
    expect(byStart('%%perl')).toMatchObject({ language: 'python' });
    const nb = exportNotebook(conversationOf(magics), META);
    expect(nb.cells.map((c) => joined(c.source))).toEqual(
      (JSON.parse(shapes.magics!) as { cells: Array<{ source: string | string[] }> }).cells.map((c) => joined(c.source)),
    );
  });

  it('after a change, only what changed differs: a renamed title, a cell re-run in the app, a message added', async () => {
    const imported = importNotebook(shapes.tags!, { maxBytes: 1e9, fileName: 'tags.ipynb' });
    const conv = conversationOf(imported);
    conv.title = 'Renamed';
    const rerun = conv.items.find((i): i is CellItem => i.kind === 'cell' && i.code === 'print(alpha * runs)')!;
    Object.assign(rerun, {
      imported: false,
      outputs: [{ output_type: 'stream', name: 'stdout', text: 'changed\n' }],
      executionCount: 9,
      startedAt: '2026-03-04T05:06:07.000Z',
      durationMs: 12,
    });
    conv.items.push({ kind: 'user', id: 'added-by-user', text: 'thanks', attachments: [], createdAt: '2026-03-04T05:07:00.000Z' });
    const text = serializeNotebook(exportNotebook(conv, META));
    const [found] = await notebookDifferences(jupyter, [[shapes.tags!, text]]);
    // Paths only, and Jupyter's four kernel timestamps as one.
    const ignoringValues = [...new Set(found!.map((d) => d.replace(/:.*$/, '').replace(/(\.metadata\.execution)\..*$/, '$1')))];
    expect(ignoringValues).toEqual([
      'nb.cells',
      'nb.cells[2].execution_count',
      'nb.cells[2].metadata.execution',
      'nb.cells[2].outputs[0].text',
      'nb.metadata.oi',
      'nb.metadata.title',
    ]);
    const nb = JSON.parse(text) as { cells: Array<{ metadata: Record<string, unknown> }> };
    // The re-run cell keeps its tags; the new message is the app's, marked as the user's.
    expect(nb.cells[2]!.metadata.tags).toEqual(['keep', 'report']);
    expect(nb.cells.at(-1)!.metadata.oi).toMatchObject({ role: 'user' });
  });

  it('names what cannot be kept: an unknown output type, a stream other than stdout/stderr, repeated ids', () => {
    const nb = JSON.parse(shapes.streams!) as { cells: Array<Record<string, unknown> & { outputs?: unknown[] }> };
    nb.cells[0]!.outputs!.push({ output_type: 'future_output', data: {} }, { output_type: 'stream', name: 'stdlog', text: 'x\n' });
    nb.cells[2]!.id = nb.cells[1]!.id;
    const imported = importNotebook(JSON.stringify(nb), { maxBytes: 1e9 });
    expect(imported.warnings).toEqual([
      expect.stringMatching(/^Cell 0, output \d+ has the unknown type "future_output"; it was left out\.$/),
      expect.stringMatching(/^Cell 0, output \d+: the stream "stdlog" is shown as stdout\.$/),
      expect.stringMatching(/^Cell ids must be unique; repeated ones were given new ids: cell 2 \("[^"]+" → "[^"]+"\)\.$/),
    ]);
  });
});

const joined = (source: string | string[]): string => (Array.isArray(source) ? source.join('') : source);

function conversationOf(imported: ReturnType<typeof importNotebook>): Conversation {
  return {
    version: 1,
    id: 'conv-lossless',
    title: imported.title,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    workspace: '/tmp/oi-lossless',
    items: imported.conversationItems,
    usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
    autoRun: false,
    notebook: imported.notebook,
  };
}
