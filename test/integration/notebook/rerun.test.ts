import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings, type CellItem } from '@contract';
import type { ExecService } from '../../../src-main/core/exec';
import { exportNotebook, serializeNotebook } from '../../../src-main/core/notebook/ipynb-export';
import { importNotebook } from '../../../src-main/core/notebook/ipynb-import';
import { applyRunResult, rerunCells, rerunnableCells, type RerunProgress } from '../../../src-main/core/notebook/rerun';
import { useHarness } from '../../support/exec-harness';
import { pathWithout } from '../../support/path-without';
import { cell, conversation, error, stdout, user } from './support/conversation-builders';

// Re-running an imported notebook in a real execution engine (the app's Python and shell sessions).

const SETTINGS = { ...defaultSettings.exec, timeoutMs: 30_000 };

function importedCells(cells: CellItem[]): CellItem[] {
  const text = serializeNotebook(exportNotebook(conversation([user('go'), ...cells]), { appVersion: '1', provider: 'p', model: 'm' }));
  return rerunnableCells(importNotebook(text, { maxBytes: 1e8 }).conversationItems);
}

describe('re-running imported cells', () => {
  let exec: ExecService;
  let conversationN = 0;
  const ctx = () => ({ conversationId: `rerun-${++conversationN}`, workspace: h.workspace, settings: SETTINGS });

  const h = useHarness({ graceMs: 500 });
  beforeAll(() => {
    exec = h.service;
  });

  it('runs the cells in order in the live session, reporting cell k of n, and restores their state', async () => {
    const cells = importedCells([
      cell('python', 'x = 20', []),
      cell('shell', 'echo "from the shell"', [stdout('from the shell\n')]),
      cell('python', 'print(x + 1)', [stdout('21\n')]),
    ]);
    const progress: string[] = [];
    const outcome = await rerunCells(exec, cells, ctx(), (p: RerunProgress) =>
      progress.push(`${p.k}/${p.n} ${p.result ? p.result.status : 'running'}`),
    );
    expect(progress).toEqual(['1/3 running', '1/3 done', '2/3 running', '2/3 done', '3/3 running', '3/3 done']);
    expect(outcome.stoppedAt).toBeNull();
    expect(outcome.nextIndex).toBeNull();
    const last = applyRunResult(cells[2]!, outcome.results[2]!.result, '2026-01-01T00:00:00.000Z');
    expect(last.outputs).toEqual([{ output_type: 'stream', name: 'stdout', text: expect.stringContaining('21') }]);
    expect(last.status).toBe('done');
    expect(last.resultForModel).toContain('21');
  });

  it('stops at the first cell that fails, says where, and continues from the next when asked', async () => {
    const cells = importedCells([cell('python', 'y = 1', []), cell('python', '1/0', []), cell('python', 'print("after", y)', [])]);
    const context = ctx();
    const first = await rerunCells(exec, cells, context);
    expect(first.results).toHaveLength(2);
    expect(first.stoppedAt).toMatchObject({ index: 1, cellId: cells[1]!.id, result: { status: 'failed' } });
    expect(first.nextIndex).toBe(2);

    const rest = await rerunCells(exec, cells, { ...context, startAt: first.nextIndex! });
    expect(rest.stoppedAt).toBeNull();
    expect(rest.results.map((r) => r.cellId)).toEqual([cells[2]!.id]);
    expect(JSON.stringify(rest.results[0]!.result.outputs)).toContain('after 1');
  });

  it('stops when cancelled, interrupting the running cell', async () => {
    const cells = importedCells([cell('python', 'import time\ntime.sleep(30)', []), cell('python', 'print(1)', [])]);
    const abort = new AbortController();
    const outcome = await rerunCells(exec, cells, { ...ctx(), signal: abort.signal }, (p) => {
      if (p.k === 1 && !p.result) setTimeout(() => abort.abort(), 300);
    });
    expect(outcome.cancelled).toBe(true);
    expect(outcome.results).toHaveLength(1);
    expect(outcome.results[0]!.result.status).toBe('interrupted');
    expect(outcome.nextIndex).toBe(1);
  });

  it('numbers the cells 1..n across languages, as one Jupyter kernel does, however many runs the session had', async () => {
    const cells = importedCells([
      cell('python', 'x = 1', []),
      cell('shell', 'echo shell', [stdout('shell\n')]),
      cell('python', 'x + 1', []),
    ]);
    const context = ctx();
    for (let round = 0; round < 2; round++) {
      const outcome = await rerunCells(exec, cells, context);
      expect(outcome.results.map((r) => r.result.executionCount)).toEqual([1, 2, 3]);
      // IPython numbers the value's Out[] the same: the result carries the cell's count.
      expect(outcome.results[2]!.result.outputs).toEqual([
        { output_type: 'execute_result', execution_count: 3, data: { 'text/plain': '2' }, metadata: {} },
      ]);
    }
    const [onlyLast] = (await rerunCells(exec, cells, { ...context, startAt: 2 })).results;
    expect(onlyLast!.result.executionCount).toBe(3);
  });

  it('goes on past a failure Jupyter expects (raises-exception, or an attempt that failed here) and leaves out skip-execution cells', async () => {
    const tagged = (code: string, tags: string[]) => ({
      cell_type: 'code',
      id: `c${code.length}${tags.join('')}`.replace(/[^\w-]/g, ''),
      metadata: { tags },
      source: code,
      outputs: [],
      execution_count: null,
    });
    const notebook = {
      nbformat: 4,
      nbformat_minor: 5,
      metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
      cells: [
        tagged('1 / 0', ['raises-exception']),
        tagged('import time\ntime.sleep(600)', ['skip-execution']),
        tagged('print("after the expected error")', []),
        tagged('undefined_name', []),
        tagged('print("not reached")', []),
      ],
    };
    const fromJupyter = rerunnableCells(importNotebook(JSON.stringify(notebook), { maxBytes: 1e8 }).conversationItems);
    expect(fromJupyter.map((c) => c.code)).toEqual([
      '1 / 0',
      'print("after the expected error")',
      'undefined_name',
      'print("not reached")',
    ]);
    const outcome = await rerunCells(exec, fromJupyter, ctx());
    expect(outcome.results.map((r) => r.result.status)).toEqual(['failed', 'done', 'failed']);
    expect(outcome.stoppedAt?.index).toBe(2);

    // The app's own error loop: the failed attempt is expected to fail again, the fix runs; the run that timed out is left out.
    const fromApp = importedCells([
      cell('python', 'import missing_module_here', [error('ModuleNotFoundError', "No module named 'missing_module_here'", [])], {
        status: 'failed',
        exitCode: 1,
      }),
      cell('python', 'while True: pass', [], { status: 'timeout', exitCode: null }),
      cell('python', 'print("fixed")', [stdout('fixed\n')]),
    ]);
    expect(fromApp.map((c) => c.code)).toEqual(['import missing_module_here', 'print("fixed")']);
    const loop = await rerunCells(exec, fromApp, ctx());
    expect(loop.results.map((r) => r.result.status)).toEqual(['failed', 'done']);
    expect(loop.stoppedAt).toBeNull();
  });

  it('runs a program cell magic as Jupyter does when the program is not installed here: its message, and the run goes on', async () => {
    // IPython's %%script prints "Couldn't find program: 'ruby'" and the cell succeeds. Ruby is really
    // missing (a PATH without it); the twin below runs the same cells where ruby is installed.
    const code = (id: string, source: string) => ({ cell_type: 'code', id, metadata: {}, source, outputs: [], execution_count: null });
    const notebook = {
      nbformat: 4,
      nbformat_minor: 5,
      metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
      cells: [code('a', 'x = 20'), code('b', '%%ruby\nputs 6 * 7'), code('c', 'print(x + 1)')],
    };
    const fromJupyter = rerunnableCells(importNotebook(JSON.stringify(notebook), { maxBytes: 1e8 }).conversationItems);
    expect(fromJupyter.map((c) => c.language)).toEqual(['python', 'ruby', 'python']);
    // The app's own ruby cell, exported (as `%%ruby`) and imported again, goes the same way.
    const fromApp = importedCells([cell('ruby', 'puts 6 * 7', [stdout('42\n')])]);
    expect(fromApp.map((c) => c.language)).toEqual(['ruby']);

    const noRuby = { ...SETTINGS, env: { PATH: pathWithout(path.join(h.tmpRoot, 'no-ruby'), ['ruby']) } };
    const missing = await rerunCells(exec, [...fromJupyter, ...fromApp], { ...ctx(), settings: noRuby });
    expect(missing.stoppedAt).toBeNull();
    expect(missing.results.map((r) => [r.result.status, r.result.executionCount])).toEqual([
      ['done', 1],
      ['done', 2],
      ['done', 3],
      ['done', 4],
    ]);
    const message = [{ output_type: 'stream', name: 'stdout', text: "Couldn't find program: 'ruby'\n" }];
    expect(missing.results[1]!.result.outputs).toEqual(message);
    expect(missing.results[2]!.result.outputs).toEqual([{ output_type: 'stream', name: 'stdout', text: '21\n' }]);
    expect(missing.results[3]!.result.outputs).toEqual(message);

    const present = await rerunCells(exec, [...fromJupyter, ...fromApp], ctx());
    expect(present.stoppedAt).toBeNull();
    expect(present.results.map((r) => r.result.outputs)).toEqual([
      [],
      [{ output_type: 'stream', name: 'stdout', text: '42\n' }],
      [{ output_type: 'stream', name: 'stdout', text: '21\n' }],
      [{ output_type: 'stream', name: 'stdout', text: '42\n' }],
    ]);
  });

  it('leaves out code the user declined', () => {
    const cells = importedCells([
      cell('shell', 'rm -rf ~/x', [], { status: 'skipped', approval: 'declined' }),
      cell('python', 'print(1)', []),
    ]);
    expect(cells.map((c) => c.code)).toEqual(['print(1)']);
  });
});
