import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportNotebook, serializeNotebook } from '../../../src-main/core/notebook/ipynb-export';
import { useHarness } from '../../support/exec-harness';
import { cell, conversation, user } from './support/conversation-builders';
import { startJupyter, type Jupyter } from '../../support/jupyter';

// A cell run in the real Python session, exported: its outputs come out in the order the code
// wrote them (text, figure, text, figure…), not with all the text first.

const META = { appVersion: '0.1.0', provider: 'openai', model: 'gpt-4.1' };

interface ExportedOutput {
  output_type: string;
  text?: string | string[];
  data?: Record<string, unknown>;
}

describe('exported notebooks keep the order of text and rich outputs', () => {
  let jupyter: Jupyter;
  beforeAll(() => {
    jupyter = startJupyter();
  });
  afterAll(() => {
    jupyter.dispose();
  });
  const h = useHarness();

  it('exports print / plt.show() / print / display rounds of a Python cell in the order they ran', async () => {
    const code = [
      'import matplotlib.pyplot as plt',
      'for i in range(20):',
      '    print(f"Figure {i}")',
      '    plt.plot([1, 2], [i, i + 1])',
      '    plt.show()',
      '    print(f"Table {i}")',
      '    display(HTML(f"<table><tr><td>{i}</td></tr></table>"))',
      'print("end")',
    ].join('\n');
    const result = await h.run('python', code, { settings: { pythonPath: '/usr/bin/python3' } });
    expect(result.status, result.forModel).toBe('done');
    const conv = conversation([user('Plot it'), cell('python', code, result.outputs, { executionCount: result.executionCount })]);
    const text = serializeNotebook(exportNotebook(conv, META));
    const exported = JSON.parse(text) as {
      cells: Array<{ cell_type: string; metadata: { oi?: { role: string } }; outputs?: ExportedOutput[] }>;
    };
    // The cell that ran (the export puts a cell defining `HTML` for a plain kernel before it).
    const outputs = exported.cells.find((c) => c.metadata.oi?.role === 'code')!.outputs!;
    const shown = outputs.map((o) => {
      if (o.output_type === 'stream') return `stream:${Array.isArray(o.text) ? o.text.join('') : o.text}`;
      return `${o.output_type}:${o.data?.['image/png'] ? 'png' : String(o.data?.['text/html'])}`;
    });
    const expected = Array.from({ length: 20 }, (_, i) => [
      `stream:Figure ${i}\n`,
      'display_data:png',
      `stream:Table ${i}\n`,
      `display_data:<table><tr><td>${i}</td></tr></table>`,
    ]).flat();
    expected.push('stream:end\n');
    expect(shown).toEqual(expected);
    expect(await jupyter.validate([text])).toEqual([null]);
  });
});
