import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssistantItem, CellItem, ConversationItem, NoticeItem } from '@contract';
import { exportNotebook, serializeNotebook } from '../../../src-main/core/notebook/ipynb-export';
import { importNotebook, type NotebookImport } from '../../../src-main/core/notebook/ipynb-import';
import { conversation } from './support/conversation-builders';
import { startJupyter, type Jupyter } from '../../support/jupyter';

const TOUR = fileURLToPath(new URL('../../fixtures/notebooks/feature_tour.py', import.meta.url));
const OPTS = { maxBytes: 200 * 1024 ** 2, now: '2026-01-01T00:00:00.000Z' };

interface JupyterCell {
  cell_type: string;
  outputs?: unknown[];
}

const cellsOf = (items: ConversationItem[]): CellItem[] => items.filter((i): i is CellItem => i.kind === 'cell');

describe('importing notebooks made by Jupyter', () => {
  let jupyter: Jupyter;
  let source: string;
  let executed: string;
  /** The executed notebook as nbformat itself reads it (multiline text joined). */
  let asJupyterReadsIt: { cells: JupyterCell[] };
  let imported: NotebookImport;

  beforeAll(async () => {
    jupyter = startJupyter();
    source = await jupyter.python(readFileSync(TOUR, 'utf8'));
    executed = await jupyter.execute(source);
    asJupyterReadsIt = JSON.parse(
      await jupyter.python('import sys, json, nbformat; json.dump(nbformat.reads(sys.stdin.read(), as_version=4), sys.stdout)', executed),
    ) as { cells: JupyterCell[] };
    imported = importNotebook(executed, { ...OPTS, fileName: 'tour.ipynb' });
  }, 120_000);
  afterAll(() => jupyter.dispose());

  it('keeps every output a real kernel made, exactly as nbformat reads it', () => {
    expect(imported.warnings).toEqual([]);
    const expected = asJupyterReadsIt.cells.filter((c) => c.cell_type === 'code').map((c) => c.outputs);
    expect(cellsOf(imported.conversationItems).map((c) => c.outputs)).toEqual(expected);
    const kinds = cellsOf(imported.conversationItems).flatMap((c) =>
      c.outputs.map((o) =>
        o.output_type === 'stream' ? `stream:${o.name}` : o.output_type === 'error' ? 'error' : Object.keys(o.data).sort().join('+'),
      ),
    );
    expect(kinds).toEqual([
      'stream:stdout',
      'stream:stderr',
      'image/png+text/plain',
      'text/html+text/plain',
      'image/svg+xml+text/plain',
      'text/markdown+text/plain',
      'application/json+text/plain',
      'error',
      'stream:stdout',
    ]);
  });

  it('turns code cells into prior runs: done, or failed on an error, approved by the user', () => {
    const runs = cellsOf(imported.conversationItems);
    expect(runs.map((c) => c.status)).toEqual(['done', 'done', 'done', 'done', 'failed', 'done']);
    expect(runs.map((c) => c.executionCount)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const run of runs) {
      expect(run.approval).toBe('user');
      expect(run.startedAt).toMatch(/^\d{4}-\d\d-\d\dT/); // from Jupyter's execution timestamps
      expect(run.durationMs).toBeGreaterThanOrEqual(0);
    }
    expect(runs[1]!.resultForModel).toMatch(/\[image\/png output shown to the user\]/);
    expect(runs[4]!.resultForModel).toContain('ValueError: bad value');
    expect(runs[4]!.resultForModel).not.toContain('\u001b[');
  });

  it('reads cell magics back as the language the cell runs', () => {
    const bash = cellsOf(imported.conversationItems)[5]!;
    expect(bash.language).toBe('shell');
    expect(bash.code).toBe('echo from bash\nexpr 6 \\* 7');
    expect(cellsOf(imported.conversationItems)[0]!.language).toBe('python');
    expect(imported.language).toBe('python');
  });

  it('turns markdown into assistant prose and hands its attachments back as files', () => {
    const prose = imported.conversationItems.filter((i): i is AssistantItem => i.kind === 'assistant');
    expect(prose.map((p) => p.text.split('\n')[0])).toEqual(['# Feature tour', expect.stringContaining('A dropped image')]);
    expect(imported.title).toBe('Feature tour');
    expect(imported.files).toHaveLength(1);
    const file = imported.files[0]!;
    expect(file.path).toMatch(/^attachments\/[A-Za-z0-9_-]+-red\.png$/);
    expect(file.mime).toBe('image/png');
    expect(Buffer.from(file.data).subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(prose[1]!.text).toBe(`A dropped image: ![red square](${file.path})`);
  });

  it('keeps raw cells as notices with their text as written', () => {
    const notices = imported.conversationItems.filter((i): i is NoticeItem => i.kind === 'notice');
    expect(notices).toEqual([expect.objectContaining({ level: 'info', text: '\\section{Raw LaTeX}' })]);
  });

  it('keeps Jupyter cell ids as item ids, in notebook order', () => {
    const ids = (JSON.parse(executed) as { cells: Array<{ id: string }> }).cells.map((c) => c.id);
    expect(imported.conversationItems.map((i) => i.id)).toEqual(ids);
  });

  it('imports a notebook that was never run as code not yet run', () => {
    const fresh = importNotebook(source, OPTS);
    const runs = cellsOf(fresh.conversationItems);
    expect(runs.map((c) => [c.status, c.approval, c.executionCount, c.outputs.length, c.resultForModel])).toEqual(
      runs.map(() => ['skipped', null, null, 0, null]),
    );
  });

  it('exports the imported conversation as a notebook nbformat accepts', async () => {
    const conv = conversation(imported.conversationItems, { title: imported.title });
    const text = serializeNotebook(exportNotebook(conv, { appVersion: '0.1.0', provider: 'openai', model: 'm' }));
    expect(await jupyter.validate([text])).toEqual([null]);
  });

  it('converts an nbformat 3 notebook to the same runs and outputs', async () => {
    const v3 = await jupyter.python(
      'import sys, nbformat; nb = nbformat.reads(sys.stdin.read(), as_version=4); sys.stdout.write(nbformat.writes(nbformat.convert(nb, 3), version=3))',
      executed,
    );
    expect(JSON.parse(v3)).toMatchObject({ nbformat: 3, worksheets: [expect.anything()] });
    const old = importNotebook(v3, OPTS);
    expect(old.warnings[0]).toMatch(/nbformat 3/);
    const strip = (c: CellItem) => ({
      language: c.language,
      code: c.code,
      outputs: c.outputs,
      status: c.status,
      executionCount: c.executionCount,
    });
    // Version 3 has no text/markdown output, so nbformat's own downgrade drops it.
    const withoutMarkdown = (c: CellItem): CellItem => ({
      ...c,
      outputs: c.outputs.map((o) =>
        o.output_type === 'display_data'
          ? { ...o, data: Object.fromEntries(Object.entries(o.data).filter(([m]) => m !== 'text/markdown')) }
          : o,
      ),
    });
    expect(cellsOf(old.conversationItems).map(strip)).toEqual(cellsOf(imported.conversationItems).map(withoutMarkdown).map(strip));
    expect(old.conversationItems.map((i) => i.kind)).toEqual(imported.conversationItems.map((i) => i.kind));
  });

  it("converts version 3 headings, names and short MIME keys written by nbformat's own v3 writer", async () => {
    const v3 = await jupyter.python(
      [
        'import nbformat',
        'from nbformat.v3 import new_notebook, new_worksheet, new_heading_cell, new_code_cell, new_output, new_text_cell',
        'cells = [new_heading_cell("Intro", level=2), new_text_cell("markdown", source="Some *text*"),',
        '         new_code_cell(input="1+1", prompt_number=1, outputs=[',
        '             new_output("pyout", output_text="2", output_png="iVBORw0KGgo=", prompt_number=1),',
        '             new_output("stream", output_text="hi\\n", stream="stderr")])]',
        'print(nbformat.writes(new_notebook(name="Old one", worksheets=[new_worksheet(cells=cells)]), version=3))',
      ].join('\n'),
    );
    const old = importNotebook(v3, OPTS);
    expect(old.title).toBe('Old one');
    expect(old.conversationItems.map((i) => (i.kind === 'assistant' ? i.text : i.kind))).toEqual(['## Intro', 'Some *text*', 'cell']);
    expect(cellsOf(old.conversationItems)[0]).toMatchObject({
      code: '1+1',
      status: 'done',
      executionCount: 1,
      outputs: [
        { output_type: 'execute_result', execution_count: 1, data: { 'text/plain': '2', 'image/png': 'iVBORw0KGgo=' }, metadata: {} },
        { output_type: 'stream', name: 'stderr', text: 'hi\n' },
      ],
    });
  });

  it('reads a notebook of a newer 4.x minor with fields it does not know, as nbformat does', async () => {
    // The shape of nbformat's own forward-compatibility file: minor 99, extra fields at every level,
    // a cell type and an output type from "the future".
    const future = JSON.stringify({
      extra: 'future',
      metadata: {},
      nbformat: 4,
      nbformat_minor: 99,
      cells: [
        { id: 'later-1', cell_type: 'markdown', extra: 5, metadata: {}, source: ['# From a later format'] },
        {
          id: 'later-2',
          cell_type: 'code',
          execution_count: 1,
          future: 'yes',
          metadata: { collapsed: false },
          outputs: [{ name: 'stdout', extra: 'future', output_type: 'stream', text: ['hello\n'] }],
          source: ['print("hello")'],
        },
        { id: 'later-3', cell_type: 'future cell', metadata: {}, key: 'value' },
        {
          id: 'later-4',
          cell_type: 'code',
          execution_count: 2,
          metadata: {},
          outputs: [
            { name: 'stdout', output_type: 'stream', text: ['again\n'] },
            { output_type: 'future output', 'some key': ['some data'] },
          ],
          source: ['future_output()'],
        },
      ],
    });
    // nbformat reads and validates it: newer minors may add fields.
    expect(await jupyter.validate([future])).toEqual([null]);

    const read = importNotebook(future, { ...OPTS, fileName: 'later.ipynb' });
    expect(read.warnings).toEqual([
      'The notebook is nbformat 4.99, newer than 4.5; it was read by the 4.5 rules, and fields 4.5 does not know were left out.',
      'Cell 2 has the unknown type "future cell" (from a newer notebook format); it was left out.',
      'Cell 3, output 1 has the unknown type "future output"; it was left out.',
    ]);
    const cells = cellsOf(read.conversationItems);
    expect(cells.map((c) => [c.code, c.outputs])).toEqual([
      ['print("hello")', [{ output_type: 'stream', name: 'stdout', text: 'hello\n' }]],
      ['future_output()', [{ output_type: 'stream', name: 'stdout', text: 'again\n' }]],
    ]);
    // Written back as the newest minor the app knows, which nbformat accepts exactly as written.
    const back = serializeNotebook(
      exportNotebook(conversation(read.conversationItems, { notebook: read.notebook }), { appVersion: '1', provider: 'p', model: 'm' }),
    );
    expect(JSON.parse(back)).toMatchObject({ nbformat: 4, nbformat_minor: 5 });
    expect(await jupyter.validate([back], { exact: true })).toEqual([null]);
  });

  it('writes an attachment the way its name asks: the PNG alternative for a .png, base64 SVG decoded', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>';
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const svgBase64 = Buffer.from(svg).toString('base64');
    const nb = {
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5,
      cells: [
        {
          id: 'drawings',
          cell_type: 'markdown',
          metadata: {},
          // JupyterLab's shape for a pasted drawing: SVG first (base64), a PNG of it beside.
          attachments: { 'drawing.png': { 'image/svg+xml': svgBase64, 'image/png': png }, 'plain.svg': { 'image/svg+xml': svgBase64 } },
          source: ['![a](attachment:drawing.png) ![b](attachment:plain.svg)'],
        },
      ],
    };
    const read = importNotebook(JSON.stringify(nb), { ...OPTS, fileName: 'drawings.ipynb' });
    const [drawing, plain] = read.files;
    expect(drawing?.path).toMatch(/drawing\.png$/);
    expect(drawing?.mime).toBe('image/png');
    expect(Buffer.from(drawing!.data).toString('base64')).toBe(png);
    expect(plain?.mime).toBe('image/svg+xml');
    expect(Buffer.from(plain!.data).toString('utf8')).toBe(svg);
  });
});
