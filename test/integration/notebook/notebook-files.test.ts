import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportToFile, importFromFile, notebookFileName } from '../../../src-main/core/notebook/notebook-files';
import { NotebookImportError } from '../../../src-main/core/notebook/notebook-import-error';
import { cell, conversation, display, PNG_1X1, stdout, user } from './support/conversation-builders';
import { startJupyter, type Jupyter } from '../../support/jupyter';

// The file helpers the CLI (`%export file.ipynb`, `oi --notebook file.ipynb`) and the handlers share.

const META = { appVersion: '1.0', provider: 'openai', model: 'gpt-4.1' };

describe('notebook files', () => {
  let jupyter: Jupyter;
  let dir: string;
  beforeAll(() => {
    jupyter = startJupyter();
    dir = mkdtempSync(path.join(tmpdir(), 'oi-nb-files-'));
  });
  afterAll(() => {
    jupyter?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes a conversation as a notebook nbformat accepts, and reads it back as the same items', async () => {
    const conv = conversation([
      user('Plot it'),
      cell('python', 'print(1)', [stdout('1\n')]),
      cell('python', 'plot()', [display({ 'image/png': PNG_1X1, 'text/plain': 'fig' })]),
    ]);
    const file = path.join(dir, 'session.ipynb');
    writeFileSync(file, 'an older file, replaced whole');
    const written = await exportToFile(conv, file, META);
    expect(written).toEqual({ path: file, bytes: statSync(file).size, cells: 3 });
    expect(await jupyter.validate([readFileSync(file, 'utf8')], { exact: true })).toEqual([null]);

    const imported = await importFromFile(file, { maxBytes: 1e8 });
    // What the model is told is rebuilt on import; everything else comes back as it was.
    expect(imported.conversationItems.map((i) => (i.kind === 'cell' ? { ...i, resultForModel: null, imported: undefined } : i))).toEqual(
      conv.items,
    );
    expect(imported.title).toBe(conv.title);
  });

  it('refuses a file over the limit before reading it, and names missing files', async () => {
    const file = path.join(dir, 'big.ipynb');
    writeFileSync(file, `{"nbformat": 4, "pad": "${'x'.repeat(5000)}"}`);
    const error = await importFromFile(file, { maxBytes: 1024 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotebookImportError);
    expect((error as NotebookImportError).problem).toBe('too-large');
    expect((error as Error).message).toMatch(/The notebook "big\.ipynb" is 4\.9 KB, over the import limit of 1\.0 KB/);
    await expect(importFromFile(path.join(dir, 'nope.ipynb'), { maxBytes: 1024 })).rejects.toThrow(
      /cannot read the notebook .*nope\.ipynb: no such file/,
    );
    await expect(importFromFile(dir, { maxBytes: 1024 })).rejects.toThrow(/is not a file/);
  });

  it('names exported files after the title, safe on every OS', () => {
    expect(notebookFileName('Sales: Q1/Q2 "final"?')).toBe('Sales Q1 Q2 final.ipynb');
    expect(notebookFileName('  ...  ')).toBe('conversation.ipynb');
    expect(notebookFileName('a'.repeat(300))).toBe(`${'a'.repeat(120)}.ipynb`);
  });
});
