import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJupyter, type Jupyter } from '../../support/jupyter';
import { cliEnv, runOi } from '../../support/cli-process';
import { useCliRun } from '../../support/cli-run';

// The CLI's notebook entry points: `oi --notebook file.ipynb` starts from a notebook, `%export` writes one.

const SALES = JSON.stringify({
  nbformat: 4,
  nbformat_minor: 5,
  metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' }, language_info: { name: 'python' } },
  cells: [
    { id: 'intro', cell_type: 'markdown', metadata: {}, source: '# Sales report' },
    {
      id: 'rows',
      cell_type: 'code',
      metadata: {},
      execution_count: 1,
      source: 'print("rows: 3")',
      outputs: [{ output_type: 'stream', name: 'stdout', text: 'rows: 3\n' }],
    },
  ],
});

const cli = useCliRun();
let jupyter: Jupyter;
beforeAll(() => {
  jupyter = startJupyter();
});
afterAll(() => jupyter?.dispose());

const conversationFiles = (dir: string) =>
  existsSync(path.join(dir, 'conversations')) ? readdirSync(path.join(dir, 'conversations')).filter((n) => n.endsWith('.json')) : [];

describe('oi and notebooks', () => {
  it('starts from a notebook with --notebook: the model sees its cells and outputs', async () => {
    const { llm, dir } = await cli.start('oi-cli-nb-');
    const file = path.join(dir, 'sales.ipynb');
    writeFileSync(file, SALES);
    llm.enqueue({ kind: 'text', text: 'The notebook counted 3 rows.' });
    const result = await runOi(
      ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl, '--notebook', file, '-m', 'What did it find?'],
      cliEnv(dir),
    );

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('The notebook counted 3 rows.');
    const sent = JSON.stringify(llm.requests.at(-1)?.body);
    expect(sent).toContain('print(\\"rows: 3\\")');
    expect(sent).toContain('rows: 3\\n');
    const list = await runOi(['--list'], cliEnv(dir));
    expect(list.stdout).toMatch(/Sales report/);
  });

  it('refuses a broken notebook naming the file and the problem, and saves nothing', async () => {
    const dir = cli.folder('oi-cli-nb-');
    const file = path.join(dir, 'broken.ipynb');
    writeFileSync(file, '{"nbformat": 4, "cells": [');
    const result = await runOi(['--notebook', file, '-m', 'hello'], cliEnv(dir));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/broken\.ipynb: The file is not valid JSON: .* at line 1, column \d+/);
    expect(conversationFiles(dir)).toEqual([]);
    expect((await runOi(['--notebook', file, '--conversation', 'abc'], cliEnv(dir))).stderr).toMatch(
      /--conversation and --notebook each choose the conversation; give one of them/,
    );
  });

  it('exports the conversation with %export as a notebook nbformat accepts', async () => {
    const { llm, dir } = await cli.start('oi-cli-nb-');
    const file = path.join(dir, 'sales.ipynb');
    writeFileSync(file, SALES);
    const oi = cli.terminal(
      ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl, '--notebook', file],
      cliEnv(dir),
    );
    await oi.expect('Imported "Sales report" (2 items)');
    await oi.expect('> ');
    const out = path.join(dir, 'out.ipynb');
    oi.line(`%export ${out}`);
    await oi.expect(`Exported 2 cells to ${out}.`);
    const text = readFileSync(out, 'utf8');
    expect(await jupyter.validate([text], { exact: true })).toEqual([null]);
    expect((JSON.parse(text) as { cells: Array<{ source: string[] }> }).cells.map((c) => c.source.join(''))).toEqual([
      '# Sales report',
      'print("rows: 3")',
    ]);

    oi.line('%export notes.txt');
    await oi.expect('%export failed: the file name should end in .ipynb');
    oi.line('exit');
    expect(await oi.exited).toBe(0);
  });
});
