import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../../fixtures/llm-server';
import { startJupyter, type Jupyter } from '../../support/jupyter';
import { cliEnv, OiTerminal, runOi, tempDir } from '../../support/cli-process';

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

let llm: ScriptedLlm | null = null;
let data: ReturnType<typeof tempDir> | null = null;
let oi: OiTerminal | null = null;
let jupyter: Jupyter;
beforeAll(() => {
  jupyter = startJupyter();
});
afterAll(() => jupyter?.dispose());
afterEach(async () => {
  oi?.kill();
  await oi?.exited;
  await llm?.close();
  data?.remove();
  oi = null;
  llm = null;
  data = null;
});

const conversationFiles = (dir: string) =>
  existsSync(path.join(dir, 'conversations')) ? readdirSync(path.join(dir, 'conversations')).filter((n) => n.endsWith('.json')) : [];

describe('oi and notebooks', () => {
  it('starts from a notebook with --notebook: the model sees its cells and outputs', async () => {
    llm = await startScriptedLlm();
    data = tempDir('oi-cli-nb-');
    const file = path.join(data.dir, 'sales.ipynb');
    writeFileSync(file, SALES);
    llm.enqueue({ kind: 'text', text: 'The notebook counted 3 rows.' });
    const result = await runOi(
      ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl, '--notebook', file, '-m', 'What did it find?'],
      cliEnv(data.dir),
    );

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('The notebook counted 3 rows.');
    const sent = JSON.stringify(llm.requests.at(-1)?.body);
    expect(sent).toContain('print(\\"rows: 3\\")');
    expect(sent).toContain('rows: 3\\n');
    const list = await runOi(['--list'], cliEnv(data.dir));
    expect(list.stdout).toMatch(/Sales report/);
  });

  it('refuses a broken notebook naming the file and the problem, and saves nothing', async () => {
    data = tempDir('oi-cli-nb-');
    const file = path.join(data.dir, 'broken.ipynb');
    writeFileSync(file, '{"nbformat": 4, "cells": [');
    const result = await runOi(['--notebook', file, '-m', 'hello'], cliEnv(data.dir));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/broken\.ipynb: The file is not valid JSON: .* at line 1, column \d+/);
    expect(conversationFiles(data.dir)).toEqual([]);
    expect((await runOi(['--notebook', file, '--conversation', 'abc'], cliEnv(data.dir))).stderr).toMatch(
      /--conversation and --notebook each choose the conversation; give one of them/,
    );
  });

  it('exports the conversation with %export as a notebook nbformat accepts', async () => {
    llm = await startScriptedLlm();
    data = tempDir('oi-cli-nb-');
    const file = path.join(data.dir, 'sales.ipynb');
    writeFileSync(file, SALES);
    oi = new OiTerminal(
      ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl, '--notebook', file],
      cliEnv(data.dir),
    );
    await oi.expect('Imported "Sales report" (2 items)');
    await oi.expect('> ');
    const out = path.join(data.dir, 'out.ipynb');
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
