import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CellItem } from '@contract';
import { exportNotebook, serializeNotebook } from '../../../src-main/core/notebook/ipynb-export';
import { startJupyter, type Jupyter } from '../../support/jupyter';
import { pythonShellSession } from './support/sessions';

const META = { appVersion: '0.1.0', provider: 'openai', model: 'gpt-4.1' };

interface ExecutedCell {
  cell_type: string;
  outputs?: Array<{ output_type: string; name?: string; text?: string | string[] }>;
}

/** All stream text of a cell per stream name, as one string each. */
function streams(outputs: ExecutedCell['outputs'] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const o of outputs) {
    if (o.output_type !== 'stream' || !o.name) continue;
    out[o.name] = (out[o.name] ?? '') + (Array.isArray(o.text) ? o.text.join('') : (o.text ?? ''));
  }
  return out;
}

describe('exported notebooks in Jupyter', () => {
  let jupyter: Jupyter;
  beforeAll(() => {
    jupyter = startJupyter();
  });
  afterAll(() => jupyter.dispose());

  it('re-executes a Python + shell session under nbconvert --execute and reproduces its streams', async () => {
    const conv = pythonShellSession();
    const executed = JSON.parse(await jupyter.execute(serializeNotebook(exportNotebook(conv, META)))) as {
      cells: ExecutedCell[];
    };
    const runs = conv.items.filter((i): i is CellItem => i.kind === 'cell');
    const codeCells = executed.cells.filter((c) => c.cell_type === 'code');
    expect(codeCells).toHaveLength(runs.length);
    codeCells.forEach((executedCell, i) => {
      expect(executedCell.outputs?.some((o) => o.output_type === 'error')).toBe(false);
      expect(streams(executedCell.outputs)).toEqual(streams(runs[i]!.outputs as ExecutedCell['outputs']));
    });
    // The expression result comes back as Jupyter's execute_result.
    expect(codeCells[2]!.outputs).toContainEqual(expect.objectContaining({ output_type: 'execute_result' }));
    expect(await jupyter.validate([JSON.stringify(executed)])).toEqual([null]);
  });
});
