import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportNotebook, serializeNotebook } from '../../../src-main/core/notebook/ipynb-export';
import { strictNotebookSchema } from '../../../src-main/core/notebook/nbformat-schema';
import { cell, conversation, display, error, result, stdout, user } from './support/conversation-builders';
import { startJupyter, type Jupyter } from '../../support/jupyter';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test mutations of raw JSON

// The app's schema is written from the specification; nbformat's validator is the authority. Each
// case changes one thing in a valid notebook, and both must reach the same verdict.

function base(): Json {
  const conv = conversation([
    user('hi'),
    cell('python', 'print(1)', [stdout('1\n')]),
    cell('python', 'x', [result(2, { 'text/plain': '1' }), display({ 'text/html': '<b>', 'text/plain': 'b' })]),
    cell('python', '1/0', [error('ZeroDivisionError', 'division by zero', ['tb'])], { status: 'failed' }),
    cell('shell', 'rm', [], { status: 'skipped', approval: 'declined' }),
  ]);
  return JSON.parse(serializeNotebook(exportNotebook(conv, { appVersion: '1', provider: 'p', model: 'm' }))) as Json;
}

// Cell indexes in base(): 0 markdown, 1-3 code, 4 raw.
const CASES: Record<string, (nb: Json) => void> = {
  unchanged: () => {},
  'extra top-level field': (nb) => (nb.extra = 1),
  'extra notebook metadata': (nb) => (nb.metadata.anything = { deep: [1] }),
  'kernelspec without display_name': (nb) => delete nb.metadata.kernelspec.display_name,
  'language_info without name': (nb) => delete nb.metadata.language_info.name,
  'codemirror_mode as a number': (nb) => (nb.metadata.language_info.codemirror_mode = 3),
  'orig_nbformat 0': (nb) => (nb.metadata.orig_nbformat = 0),
  'title as a number': (nb) => (nb.metadata.title = 1),
  'nbformat_minor 4 in a notebook with ids': (nb) => (nb.nbformat_minor = 4),
  'nbformat_minor 4 without ids': (nb) => {
    nb.nbformat_minor = 4;
    for (const c of nb.cells) delete c.id;
  },
  'nbformat_minor as a string': (nb) => (nb.nbformat_minor = '5'),
  'no cells list': (nb) => delete nb.cells,
  'cell id 65 characters': (nb) => (nb.cells[0].id = 'a'.repeat(65)),
  'cell id with a dot': (nb) => (nb.cells[0].id = 'a.b'),
  'cell id empty': (nb) => (nb.cells[0].id = ''),
  'extra field on a markdown cell': (nb) => (nb.cells[0].outputs = []),
  'attachments on a code cell': (nb) => (nb.cells[1].attachments = {}),
  'attachments on a raw cell': (nb) => (nb.cells[4].attachments = { 'a.png': { 'image/png': 'AAAA' } }),
  'attachment holding a number': (nb) => (nb.cells[0].attachments = { 'a.png': { 'image/png': 1 } }),
  'source as a number': (nb) => (nb.cells[0].source = 1),
  'source as a list with a number': (nb) => (nb.cells[0].source = ['a', 1]),
  'cell metadata extra key': (nb) => (nb.cells[1].metadata.mine = { x: 1 }),
  'tags with a comma': (nb) => (nb.cells[1].metadata.tags = ['a,b']),
  'tags repeated': (nb) => (nb.cells[1].metadata.tags = ['a', 'a']),
  'tags fine': (nb) => (nb.cells[1].metadata.tags = ['a', 'b']),
  'empty cell name': (nb) => (nb.cells[1].metadata.name = ''),
  'scrolled auto': (nb) => (nb.cells[1].metadata.scrolled = 'auto'),
  'scrolled yes': (nb) => (nb.cells[1].metadata.scrolled = 'yes'),
  'collapsed as a string': (nb) => (nb.cells[1].metadata.collapsed = 'true'),
  'execution timestamp as a number': (nb) => (nb.cells[1].metadata.execution = { 'iopub.status.idle': 5 }),
  'raw format as a number': (nb) => (nb.cells[4].metadata.format = 5),
  'execution_count negative': (nb) => (nb.cells[1].execution_count = -1),
  'execution_count fractional': (nb) => (nb.cells[1].execution_count = 1.5),
  'code cell without execution_count': (nb) => delete nb.cells[1].execution_count,
  'code cell without outputs': (nb) => delete nb.cells[1].outputs,
  'unknown cell type': (nb) => nb.cells.push({ cell_type: 'future', metadata: {}, anything: 1 }),
  'unknown cell type without metadata': (nb) => nb.cells.push({ cell_type: 'future' }),
  'stream with any name': (nb) => (nb.cells[1].outputs[0].name = 'custom'),
  'stream text as a number': (nb) => (nb.cells[1].outputs[0].text = 5),
  'stream with an extra field': (nb) => (nb.cells[1].outputs[0].extra = 1),
  'execute_result without execution_count': (nb) => delete nb.cells[2].outputs[0].execution_count,
  'execute_result count null': (nb) => (nb.cells[2].outputs[0].execution_count = null),
  'display_data without metadata': (nb) => delete nb.cells[2].outputs[1].metadata,
  'display_data with transient': (nb) => (nb.cells[2].outputs[1].transient = {}),
  'text MIME value as an object': (nb) => (nb.cells[2].outputs[1].data['text/plain'] = { a: 1 }),
  'JSON MIME value as an object': (nb) => (nb.cells[2].outputs[1].data['application/json'] = { a: 1 }),
  'vendor JSON MIME value as a number': (nb) => (nb.cells[2].outputs[1].data['application/vnd.x+json'] = 4),
  'error traceback as a string': (nb) => (nb.cells[3].outputs[0].traceback = 'tb'),
  'error without evalue': (nb) => delete nb.cells[3].outputs[0].evalue,
  'unknown output type': (nb) => nb.cells[1].outputs.push({ output_type: 'future', x: 1 }),
  'output without output_type': (nb) => nb.cells[1].outputs.push({ name: 'stdout', text: '' }),
};

describe("the app's nbformat schema", () => {
  let jupyter: Jupyter;
  beforeAll(() => {
    jupyter = startJupyter();
  });
  afterAll(() => jupyter.dispose());

  it('accepts and rejects exactly what nbformat.validate does', async () => {
    const names = Object.keys(CASES);
    const texts = names.map((name) => {
      const nb = base();
      CASES[name]!(nb);
      return JSON.stringify(nb);
    });
    const theirs = (await jupyter.validate(texts, { exact: true })).map((e) => e === null);
    const ours = texts.map((text) => {
      const nb = JSON.parse(text) as Json;
      return strictNotebookSchema(typeof nb.nbformat_minor === 'number' ? nb.nbformat_minor : 5).safeParse(nb).success;
    });
    const verdicts = (valid: boolean[]) => Object.fromEntries(names.map((name, i) => [name, valid[i]]));
    expect(verdicts(ours)).toEqual(verdicts(theirs));
  });

  it('requires cell ids in 4.5 where nbformat.validate quietly adds them', async () => {
    const nb = base();
    delete nb.cells[1].id;
    expect(strictNotebookSchema(5).safeParse(nb).success).toBe(false);
    // nbformat repairs instead of rejecting (a behaviour it has deprecated); the spec requires ids.
    expect(await jupyter.validate([JSON.stringify(nb)], { exact: true })).toEqual([null]);
  });
});
