import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '@contract';
import { createExecService, type ExecService } from '../../../src-main/core/exec';
import { SYSTEM_PYTHON } from '../../support/jupyter-home';
import { startJupyter, type Jupyter } from '../../support/jupyter';
import { realShapes, shapesExecutedByNbconvert } from './support/real-shapes';
import { outputKinds, rerunInApp, type NbOutput } from './support/rerun-in-app';

// "Re-run all" mirrors Jupyter: each Python notebook of real shapes (real_shapes.py) is imported,
// re-run in the app's own sessions (Debian's Python, so IPython), exported, and compared with what
// `nbconvert --execute` makes of the same file in a fresh kernel: per code cell the same execution
// count (1..n across languages, as one kernel numbers them) and the same outputs in the same order —
// output types, stream names (stderr stays stderr), MIME types of rich outputs, error names.

const RESOURCES_DIR = path.resolve(import.meta.dirname, '../../../resources');

interface NbCell {
  id?: string;
  cell_type: string;
  execution_count?: number | null;
  outputs?: NbOutput[];
}

const codeCells = (text: string): Array<{ count: number | null; outputs: string[] }> =>
  (JSON.parse(text) as { cells: NbCell[] }).cells
    .filter((c) => c.cell_type === 'code')
    .map((c) => ({ count: c.execution_count ?? null, outputs: outputKinds(c.outputs ?? []) }));

describe('re-run all mirrors nbconvert --execute', () => {
  let jupyter: Jupyter;
  let shapes: Record<string, string>;
  let expected: Record<string, string>;
  let exec: ExecService;
  let tmpRoot: string;

  beforeAll(async () => {
    jupyter = startJupyter({ forkedKernels: true });
    shapes = await realShapes(jupyter);
    // Jupyter's notebooks only: the R and Julia kernels are not on this machine for nbconvert.
    const python = Object.fromEntries(
      Object.entries(shapes).filter(
        ([, text]) => (JSON.parse(text) as { metadata: { kernelspec?: { name?: string } } }).metadata.kernelspec?.name === 'python3',
      ),
    );
    expected = await shapesExecutedByNbconvert(jupyter, python);
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
      const workspace = mkdtempSync(path.join(tmpRoot, `${name}-`));
      const { exported, stoppedAt } = await rerunInApp(exec, shapes[name]!, { name, workspace, settings });
      found[name] = { stoppedAt, cells: codeCells(exported) };
      wanted[name] = { stoppedAt: null, cells: codeCells(expected[name]!) };
    }
    expect(found).toEqual(wanted);
  }, 900_000);
});
