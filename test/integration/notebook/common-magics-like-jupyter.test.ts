import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '@contract';
import { createExecService, type ExecService } from '../../../src-main/core/exec';
import { SYSTEM_PYTHON } from '../../support/jupyter-home';
import { startJupyter, type Jupyter } from '../../support/jupyter';
import { executedByNbconvert } from './support/real-shapes';
import { outputKinds, rerunInApp, type NbOutput } from './support/rerun-in-app';

// Issue 13's list of the magics a Jupyter user writes (%matplotlib inline, %%writefile, %%capture,
// %%time, %timeit, %env, !ls, %%R, %%javascript, %%ruby, %%bash --out, %pip, %cd…) in one notebook
// that nbconvert --execute runs, then imported, re-run in the app's Python session (Debian's, so
// IPython) and exported: per code cell the same count, the same output kinds in the same order, and
// the same text where it does not depend on time or place.

interface NbCell {
  cell_type: string;
  execution_count?: number | null;
  outputs?: NbOutput[];
}

const CELLS: Array<{ source: string; tags?: string[]; sameText?: boolean }> = [
  { source: '%matplotlib inline\nimport matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.show()' },
  { source: "from IPython.display import HTML, Markdown, display\ndisplay(HTML('<b>x</b>'))\nMarkdown('*m*')" },
  { source: '%%writefile written.txt\nhello', sameText: true },
  { source: "%%capture captured\nprint('kept for later')" },
  { source: 'captured.stdout' },
  { source: '%%time\nsum(range(10))' },
  { source: '%timeit -n 1 -r 1 pass' },
  { source: '%env GREETING=hi', sameText: true },
  { source: '!ls written.txt' },
  // No R magic without rpy2, in Jupyter either: IPython's UsageError, expected by the tag.
  { source: '%%R\n1 + 1', tags: ['raises-exception'], sameText: true },
  { source: '%%javascript\nconsole.log(1)' },
  { source: '%%ruby\nputs 6 * 7', sameText: true },
  { source: '%%script no-such-program-here\nx', sameText: true },
  { source: '%%bash --out bash_out\necho from bash' },
  { source: 'bash_out' },
  { source: '%%perl\nprint "perl\\n";', sameText: true },
  { source: '1 / 0', tags: ['raises-exception'] },
  { source: "import sys\nprint('to stderr', file=sys.stderr)", sameText: true },
  { source: '%pip --version' },
  { source: 'get_ipython() is not None', sameText: true },
  // Issue 35, item 5: the figure formats a cell chose before `%matplotlib inline` (PDF too), help()'s
  // plain text (no pager overstrike), %store (ipykernel loads storemagic), %%html's plain-text form.
  {
    source:
      "from matplotlib_inline.backend_inline import set_matplotlib_formats\nset_matplotlib_formats('pdf', 'png')\n%matplotlib inline\nimport matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.show()",
  },
  { source: 'help(len)', sameText: true },
  { source: 'kept = 42\n%store kept\ndel kept\n%store -r kept\nprint(kept)', sameText: true },
  { source: '%%html\n<b>in html</b>', sameText: true },
];

const joined = (text: unknown): string => (Array.isArray(text) ? text.join('') : typeof text === 'string' ? text : '');

/** What a cell printed, and the plain-text form of what it displayed. */
const streamText = (outputs: NbOutput[]): string =>
  outputs.map((o) => (o.output_type === 'stream' ? joined(o.text) : joined(o.data?.['text/plain']))).join('');

const cellsOf = (text: string) =>
  (JSON.parse(text) as { cells: NbCell[] }).cells
    .filter((c) => c.cell_type === 'code')
    .map((c, i) => ({
      cell: CELLS[i]!.source.split('\n')[0],
      count: c.execution_count ?? null,
      outputs: outputKinds(c.outputs ?? []),
      ...(CELLS[i]!.sameText ? { text: streamText(c.outputs ?? []) } : {}),
    }));

describe('the magics Jupyter users write, re-run in the app as nbconvert --execute runs them', () => {
  let jupyter: Jupyter;
  let exec: ExecService;
  let tmpRoot: string;

  beforeAll(() => {
    jupyter = startJupyter();
    tmpRoot = mkdtempSync(path.join(os.tmpdir(), 'oi-nb-magics-'));
    exec = createExecService({ resourcesDir: path.resolve(import.meta.dirname, '../../../resources'), tmpRoot, graceMs: 500 });
  });
  afterAll(async () => {
    await exec?.dispose();
    if (tmpRoot) rmSync(tmpRoot, { recursive: true, force: true });
    jupyter?.dispose();
  });

  it('gives each cell the same count, output kinds, order and text as Jupyter', async () => {
    const notebook = {
      nbformat: 4,
      nbformat_minor: 5,
      metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
      cells: CELLS.map(({ source, tags }, i) => ({
        cell_type: 'code',
        id: `cell-${i}`,
        metadata: tags ? { tags } : {},
        source,
        outputs: [],
        execution_count: null,
      })),
    };
    const { magics: byJupyter } = await executedByNbconvert(jupyter, { magics: JSON.stringify(notebook) });
    const workspace = mkdtempSync(path.join(tmpRoot, 'workspace-'));
    const settings = { ...defaultSettings.exec, pythonPath: SYSTEM_PYTHON, timeoutMs: 120_000 };
    const { exported: byApp, stoppedAt } = await rerunInApp(exec, byJupyter!, { name: 'magics', workspace, settings });
    expect({ stoppedAt, cells: cellsOf(byApp) }).toEqual({
      stoppedAt: null,
      cells: cellsOf(byJupyter!),
    });
  }, 900_000);
});
