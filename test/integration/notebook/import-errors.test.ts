import { describe, expect, it } from 'vitest';
import { exportNotebook, serializeNotebook } from '../../../src-main/core/notebook/ipynb-export';
import { importNotebook } from '../../../src-main/core/notebook/ipynb-import';
import { NotebookImportError, type NotebookProblem } from '../../../src-main/core/notebook/notebook-import-error';
import { cell, conversation, display, PNG_1X1, stdout, user } from './support/conversation-builders';

const OPTS = { maxBytes: 200 * 1024 ** 2, now: '2026-01-01T00:00:00.000Z' };

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test mutations of raw JSON

/** A valid exported notebook as plain JSON, to break one thing at a time. */
function validNotebook(): Json {
  const conv = conversation([
    user('hello'),
    cell('python', 'print(1)', [stdout('1\n')]),
    cell('python', 'plot()', [display({ 'image/png': PNG_1X1, 'text/plain': 'fig' })]),
  ]);
  return JSON.parse(serializeNotebook(exportNotebook(conv, { appVersion: '1', provider: 'p', model: 'm' }))) as Json;
}

function mutated(change: (nb: Json) => void): string {
  const nb = validNotebook();
  change(nb);
  return JSON.stringify(nb, null, 1);
}

function importError(input: string | Uint8Array, opts = OPTS): NotebookImportError {
  try {
    importNotebook(input, opts);
  } catch (error) {
    if (error instanceof NotebookImportError) return error;
    throw error;
  }
  throw new Error('expected the import to fail');
}

function expectProblem(input: string | Uint8Array, problem: NotebookProblem, message: RegExp): void {
  const error = importError(input);
  expect(error.problem).toBe(problem);
  expect(error.message).toMatch(message);
}

describe('notebook import refuses bad input with a clear error', () => {
  it('says where JSON breaks, by line and column', () => {
    expectProblem(
      '{\n "cells": [\n  {"a": 1,}\n ]\n}',
      'invalid-json',
      /not valid JSON: expected a property name in double quotes, found "}" at line 3, column 11/,
    );
    expectProblem('{"cells": [', 'invalid-json', /expected a value, found end of file at line 1, column 12/);
    expectProblem('{"nbformat": 4} trailing', 'invalid-json', /unexpected "t" after the end of the document at line 1, column 17/);
    expectProblem('{"a": "tab\there"}', 'invalid-json', /control character U\+0009 inside a string/);
    expectProblem('', 'invalid-json', /end of file/);
  });

  it('tells JSON that is not a notebook from a notebook', () => {
    expectProblem('[1, 2]', 'not-a-notebook', /JSON but not a notebook: expected an object, found a list/);
    expectProblem('"text"', 'not-a-notebook', /found a string/);
    expectProblem('{"name": "package"}', 'not-a-notebook', /no "nbformat" field/);
    expectProblem('{"cells": []}', 'not-a-notebook', /has "cells" but no "nbformat"/);
  });

  it('refuses versions it does not read and converts version 3', () => {
    expectProblem(
      mutated((nb) => (nb.nbformat = 5)),
      'unsupported-version',
      /nbformat 5; the app reads versions 4\.0–4\.5 and converts version 3/,
    );
    expectProblem(
      mutated((nb) => (nb.nbformat = 2)),
      'unsupported-version',
      /nbformat 2/,
    );
    expectProblem(
      mutated((nb) => (nb.nbformat = '4')),
      'unsupported-version',
      /nbformat "4"/,
    );
    expectProblem(
      '{"nbformat": 3, "nbformat_minor": 0, "metadata": {}}',
      'schema',
      /nbformat 3 notebook cannot be converted: it has no "worksheets"/,
    );
  });

  it('names the cell and field that break the format', () => {
    expectProblem(
      mutated((nb) => delete nb.cells[1].outputs),
      'schema',
      /cell 1 \(code\), field outputs: is missing/,
    );
    expectProblem(
      mutated((nb) => (nb.cells[1].outputs[0].text = 5)),
      'schema',
      /cell 1 \(code\), field outputs\[0\]\.text: expected a string or a list of strings, got number 5/,
    );
    expectProblem(
      mutated((nb) => (nb.cells[0].outputs = [])),
      'schema',
      /cell 0 \(markdown\): unexpected field "outputs"/,
    );
    expectProblem(
      mutated((nb) => (nb.cells[0].id = 'has space')),
      'schema',
      /cell 0 \(markdown\), field id: a cell id is 1–64 letters/,
    );
    expectProblem(
      mutated((nb) => (nb.cells[2].metadata.tags = ['a,b'])),
      'schema',
      /cell 2 \(code\), field metadata\.tags\[0\]: tags are non-empty and contain no commas/,
    );
    expectProblem(
      mutated((nb) => (nb.cells[1].outputs[0].output_type = 'error')),
      'schema',
      /cell 1 \(code\), field outputs\[0\]\.ename: is missing \(expected string\)/,
    );
    expectProblem(
      mutated((nb) => (nb.cells[1].execution_count = -1)),
      'schema',
      /cell 1 \(code\), field execution_count: expected at least 0/,
    );
    expectProblem(
      mutated((nb) => (nb.cells[2].outputs[0].data['image/png'] = 7)),
      'schema',
      /cell 2 \(code\), field outputs\[0\]\.data\["image\/png"\]: expected a string or a list of strings/,
    );
    expectProblem(
      mutated((nb) => delete nb.cells[2].outputs[0].metadata),
      'schema',
      /outputs\[0\]\.metadata: is missing/,
    );
    expectProblem(
      mutated((nb) => delete nb.cells[1].cell_type),
      'schema',
      /cell 1, field cell_type: expected "markdown", "code" or "raw"/,
    );
    expectProblem(
      mutated((nb) => delete nb.metadata.kernelspec.display_name),
      'schema',
      /notebook field metadata\.kernelspec\.display_name: is missing/,
    );
    expectProblem(
      mutated((nb) => (nb.extra = 1)),
      'schema',
      /notebook: unexpected field "extra"/,
    );
  });

  it('lists every problem found, not only the first', () => {
    const error = importError(mutated((nb) => nb.cells.forEach((c: Json) => delete c.metadata)));
    expect(error.details).toHaveLength(3);
    expect(error.message).toMatch(/cell 0 .*; cell 1 .*; cell 2 /);
  });

  it('refuses files over the size limit before reading them', () => {
    const text = mutated(() => {});
    const error = importError(text, { ...OPTS, maxBytes: 1000 });
    expect(error.problem).toBe('too-large');
    expect(error.message).toMatch(/The notebook is \d\.\d KB, over the import limit of 1000 bytes/);
    expect(() => importNotebook(Buffer.from(text), { ...OPTS, maxBytes: 1000 })).toThrow(/over the import limit/);
  });

  it('recognises binary files', () => {
    expectProblem(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00]), 'binary', /binary data \(a NUL byte at byte 3\)/);
    expectProblem(
      Buffer.concat([Buffer.from('{"nbformat": 4, "x": "'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]),
      'binary',
      /not UTF-8 at byte 22/,
    );
    expectProblem('{"nbformat"\u0000: 4}', 'binary', /NUL character at position 11/);
  });

  it('reads UTF-8 bytes, with or without a byte order mark', () => {
    const text = mutated(() => {});
    expect(importNotebook(Buffer.from(text), OPTS).conversationItems).toHaveLength(3);
    expect(importNotebook(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]), OPTS).conversationItems).toHaveLength(3);
  });

  it('reads UTF-16 files (with or without a byte order mark) with a warning, and names UTF-32', () => {
    const text = mutated(() => {});
    const le = Buffer.from(text, 'utf16le');
    const be = Buffer.from(le).swap16();
    for (const [bytes, name] of [
      [Buffer.concat([Buffer.from([0xff, 0xfe]), le]), 'UTF-16 \\(little-endian\\)'],
      [Buffer.concat([Buffer.from([0xfe, 0xff]), be]), 'UTF-16 \\(big-endian\\)'],
      [le, 'UTF-16 \\(little-endian\\)'],
      [be, 'UTF-16 \\(big-endian\\)'],
    ] as const) {
      const imported = importNotebook(bytes, OPTS);
      expect(imported.conversationItems).toHaveLength(3);
      expect(imported.warnings).toEqual([expect.stringMatching(new RegExp(`^The file is ${name} text, not the UTF-8 that Jupyter reads`))]);
    }
    expectProblem(
      Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), Buffer.from('{', 'utf16le'), Buffer.alloc(2)]),
      'binary',
      /UTF-32 text \(it starts with a UTF-32 byte order mark\); a notebook is UTF-8 JSON/,
    );
    expectProblem(
      Buffer.concat([Buffer.from([0xff, 0xfe]), le.subarray(0, 9)]),
      'binary',
      /looks like UTF-16 \(little-endian\) text but has an odd number of bytes/,
    );
    expectProblem(
      Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from('{"a": "', 'utf16le'),
        Buffer.from([0x00, 0xd8]),
        Buffer.from('"}', 'utf16le'),
      ]),
      'binary',
      /UTF-16 \(little-endian\) text but holds a broken surrogate pair/,
    );
  });

  it('refuses JSON nested deeper than the bound, naming the cell and field, before anything recursive meets it', () => {
    // Built as text: the test's own JSON.stringify would overflow on such a value.
    const deep = (change: (nb: Json) => void, levels: number): string =>
      mutated(change).replace('"DEEP"', '['.repeat(levels) + ']'.repeat(levels));
    const atOutput = deep((nb) => (nb.cells[2].outputs[0].data['application/json'] = 'DEEP'), 100_000);
    expectProblem(
      atOutput,
      'too-deep',
      /nests JSON more than 512 levels deep in cell 2 \(code\), field outputs\[0\]\.data\["application\/json"\]; the app reads at most 512 levels/,
    );
    expectProblem(
      deep((nb) => (nb.cells[1].metadata.deep = 'DEEP'), 600),
      'too-deep',
      /in cell 1 \(code\), field metadata\.deep;/,
    );
    expectProblem(
      deep((nb) => (nb.metadata.widgets = 'DEEP'), 600),
      'too-deep',
      /in notebook field metadata\.widgets;/,
    );
    // Within the bound it imports, and exports again without overflowing anything.
    const fine = deep((nb) => (nb.cells[2].outputs[0].data['application/json'] = 'DEEP'), 500);
    const imported = importNotebook(fine, OPTS);
    expect(() =>
      serializeNotebook(
        exportNotebook(conversation(imported.conversationItems, { notebook: imported.notebook }), {
          appVersion: '1',
          provider: 'p',
          model: 'm',
        }),
      ),
    ).not.toThrow();
  });

  it('imports nothing when any cell is bad, however many are fine', () => {
    const text = mutated((nb) => {
      for (let i = 0; i < 50; i++) nb.cells.push({ ...nb.cells[1], id: `ok-${i}` });
      nb.cells.push({ ...nb.cells[1], id: 'bad', source: 42 });
    });
    expect(() => importNotebook(text, OPTS)).toThrow(/cell 53 \(code\), field source/);
  });

  it('warns about output and cell types from newer formats, naming them, and leaves them out', () => {
    const result = importNotebook(
      mutated((nb) => {
        nb.cells[1].outputs.push({ output_type: 'widget_state', state: {} });
        nb.cells.push({ cell_type: 'interactive', id: 'x1', metadata: {}, source: '' });
      }),
      OPTS,
    );
    expect(result.warnings).toEqual([
      'Cell 1, output 1 has the unknown type "widget_state"; it was left out.',
      'Cell 3 has the unknown type "interactive" (from a newer notebook format); it was left out.',
    ]);
    expect(result.conversationItems).toHaveLength(3);
    expect(result.conversationItems[1]).toMatchObject({ outputs: [{ output_type: 'stream', text: '1\n' }] });
  });

  it('accepts every 4.x minor: ids optional before 4.5, newer minors with a warning', () => {
    const noIds = mutated((nb) => {
      nb.nbformat_minor = 4;
      for (const c of nb.cells) delete c.id;
    });
    expect(importNotebook(noIds, OPTS).conversationItems.map((i) => i.id)).toEqual(['cell-0', 'cell-1', 'cell-2']);
    // Jupyter's reader gives ids to 4.5 cells that lack them rather than refusing the file; so do we.
    const missingId = importNotebook(
      mutated((nb) => delete nb.cells[2].id),
      OPTS,
    );
    expect(missingId.conversationItems.map((i) => i.id)).toEqual([expect.any(String), expect.any(String), 'cell-2']);
    const newer = importNotebook(
      mutated((nb) => (nb.nbformat_minor = 7)),
      OPTS,
    );
    expect(newer.warnings).toEqual(['The notebook is nbformat 4.7, newer than 4.5; it was read by the 4.5 rules.']);
  });

  it('ignores app metadata it does not recognise instead of trusting it', () => {
    const result = importNotebook(
      mutated((nb) => (nb.cells[1].metadata.oi = { role: 'code', status: 'exploded' })),
      OPTS,
    );
    expect(result.warnings).toEqual(['Cell 1: its "oi" metadata is not what this app writes; the cell was read as a plain Jupyter cell.']);
    expect(result.conversationItems[1]).toMatchObject({ kind: 'cell', status: 'done', approval: 'user', language: 'python' });
  });

  it('never writes attachments outside the workspace attachments folder', () => {
    const conv = conversation([user('img', [{ path: 'attachments/a.png', name: 'a.png', mime: 'image/png', size: 70 }])]);
    const nb = JSON.parse(
      serializeNotebook(
        exportNotebook(conv, { appVersion: '1', provider: 'p', model: 'm' }, { readAttachment: () => Buffer.from(PNG_1X1, 'base64') }),
      ),
    ) as Json;
    nb.cells[0].metadata.oi.attachments[0].path = 'attachments/../../.bashrc';
    const result = importNotebook(JSON.stringify(nb), OPTS);
    expect(result.files.map((f) => f.path)).toEqual([expect.stringMatching(/^attachments\/[^/]+-a\.png$/)]);
  });
});
