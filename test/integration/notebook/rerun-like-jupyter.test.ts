import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings, type Conversation } from '@contract';
import { createExecService, type ExecService } from '../../../src-main/core/exec';
import { exportNotebook } from '../../../src-main/core/notebook/ipynb-export';
import { importNotebook } from '../../../src-main/core/notebook/ipynb-import';
import { applyRunResult, rerunCells, rerunnableCells } from '../../../src-main/core/notebook/rerun';
import { SYSTEM_PYTHON } from '../../support/jupyter-home';
import { startJupyter, type Jupyter } from '../../support/jupyter';
import { executedByNbconvert, realShapes } from './support/real-shapes';

// "Re-run all" mirrors Jupyter: each Python notebook of real shapes (real_shapes.py) is imported,
// re-run in the app's own sessions (Debian's Python, so IPython), exported, and compared with what
// `nbconvert --execute` makes of the same file in a fresh kernel: per code cell the same execution
// count (1..n across languages, as one kernel numbers them) and the same outputs in the same order —
// output types, stream names (stderr stays stderr), MIME types of rich outputs, error names.

const RESOURCES_DIR = path.resolve(import.meta.dirname, '../../../resources');
const META = { appVersion: '0.1.0', provider: 'openai', model: 'm' };

interface NbCell {
  id?: string;
  cell_type: string;
  execution_count?: number | null;
  outputs?: NbOutput[];
}
interface NbOutput {
  output_type: string;
  name?: string;
  data?: Record<string, unknown>;
  ename?: string;
  execution_count?: number | null;
}

/**
 * A cell's outputs as kinds, adjacent text of one stream joined (Jupyter's front ends show them as one;
 * how a kernel batches a stream into messages depends on timing).
 */
function shapeOf(outputs: NbOutput[]): string[] {
  const kinds: string[] = [];
  for (const o of outputs) {
    const kind =
      o.output_type === 'stream'
        ? `stream:${o.name}`
        : o.output_type === 'error'
          ? `error:${o.ename}`
          : `${o.output_type}:${Object.keys(o.data ?? {})
              .sort()
              .join('+')}${o.output_type === 'execute_result' ? `@${o.execution_count}` : ''}`;
    if (kind.startsWith('stream:') && kinds.at(-1) === kind) continue;
    kinds.push(kind);
  }
  return kinds;
}

const codeCells = (text: string): Array<{ count: number | null; outputs: string[] }> =>
  (JSON.parse(text) as { cells: NbCell[] }).cells
    .filter((c) => c.cell_type === 'code')
    .map((c) => ({ count: c.execution_count ?? null, outputs: shapeOf(c.outputs ?? []) }));

describe('re-run all mirrors nbconvert --execute', () => {
  let jupyter: Jupyter;
  let shapes: Record<string, string>;
  let expected: Record<string, string>;
  let exec: ExecService;
  let tmpRoot: string;

  beforeAll(async () => {
    jupyter = startJupyter();
    shapes = await realShapes(jupyter);
    // Jupyter's notebooks only: the R and Julia kernels are not on this machine for nbconvert.
    const python = Object.fromEntries(
      Object.entries(shapes).filter(
        ([, text]) => (JSON.parse(text) as { metadata: { kernelspec?: { name?: string } } }).metadata.kernelspec?.name === 'python3',
      ),
    );
    expected = await executedByNbconvert(jupyter, python);
    tmpRoot = mkdtempSync(path.join(os.tmpdir(), 'oi-nb-rerun-jupyter-'));
    exec = createExecService({ resourcesDir: RESOURCES_DIR, tmpRoot, graceMs: 500 });
  }, 900_000);
  afterAll(async () => {
    await exec?.dispose();
    if (tmpRoot) rmSync(tmpRoot, { recursive: true, force: true });
    jupyter?.dispose();
  });

  it('has 20 notebooks of real shapes that nbconvert runs through, numbering the cells 1..n', () => {
    const names = Object.keys(expected);
    expect(names.length).toBeGreaterThanOrEqual(20);
    for (const name of names) {
      const counts = codeCells(expected[name]!)
        .map((c) => c.count)
        .filter((c) => c !== null);
      expect({ name, counts }).toEqual({ name, counts: counts.map((_, i) => i + 1) });
    }
  });

  it('re-runs each in the app with the same counts, output types and order as nbconvert --execute', async () => {
    const settings = { ...defaultSettings.exec, pythonPath: SYSTEM_PYTHON, timeoutMs: 120_000 };
    const found: Record<string, unknown> = {};
    const wanted: Record<string, unknown> = {};
    for (const name of Object.keys(expected)) {
      const imported = importNotebook(shapes[name]!, { maxBytes: 1e9, fileName: `${name}.ipynb` });
      const workspace = mkdtempSync(path.join(tmpRoot, `${name}-`));
      const cells = rerunnableCells(imported.conversationItems);
      const outcome = await rerunCells(exec, cells, { conversationId: `rerun-${name}`, workspace, settings });
      const items = imported.conversationItems.map((item) => {
        const ran = outcome.results.find((r) => r.cellId === item.id);
        return ran && item.kind === 'cell' ? applyRunResult(item, ran.result, new Date().toISOString()) : item;
      });
      const conv: Conversation = {
        version: 1,
        id: `conv-${name}`,
        title: imported.title,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
        workspace,
        items,
        usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
        autoRun: false,
        notebook: imported.notebook,
      };
      found[name] = {
        stoppedAt: outcome.stoppedAt?.result.forModel.slice(0, 2000) ?? null,
        cells: codeCells(JSON.stringify(exportNotebook(conv, META))),
      };
      wanted[name] = { stoppedAt: null, cells: codeCells(expected[name]!) };
      await exec.closeConversation(`rerun-${name}`);
    }
    expect(found).toEqual(wanted);
  }, 900_000);
});
