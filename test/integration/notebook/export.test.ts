import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportNotebook, serializeNotebook } from '../../../src-main/core/notebook/ipynb-export';
import { importNotebook } from '../../../src-main/core/notebook/ipynb-import';
import { NotebookV4_5, type NotebookV4 } from '../../../src-main/core/notebook/nbformat-schema';
import { languageFromMagic } from '../../../src-main/core/notebook/languages';
import { describeIssues } from '../../../src-main/core/notebook/schema-issues';
import { cell, conversation, PNG_1X1, stdout, user } from './support/conversation-builders';
import { startJupyter, type Jupyter } from '../../support/jupyter';
import { installed } from '../../support/installed';
import { pythonShellSession, richSession } from './support/sessions';

const META = { appVersion: '0.1.0', provider: 'openai', model: 'gpt-4.1' };
const WORKSPACE = '/tmp/oi-workspace';
const files = new Map([[path.join(WORKSPACE, 'attachments/screen.png'), Buffer.from(PNG_1X1, 'base64')]]);
const readAttachment = (p: string): Uint8Array | null => files.get(p) ?? null;

const joined = (source: string | string[]): string => (typeof source === 'string' ? source : source.join(''));

function expectOwnSchema(nb: NotebookV4): void {
  const parsed = NotebookV4_5.safeParse(JSON.parse(serializeNotebook(nb)));
  expect(parsed.success ? [] : describeIssues(parsed.error.issues, nb)).toEqual([]);
}

describe('notebook export', () => {
  let jupyter: Jupyter;
  beforeAll(() => {
    jupyter = startJupyter();
  });
  afterAll(() => jupyter.dispose());

  it('writes user and assistant text as markdown and each run as a code cell, in conversation order', () => {
    const nb = exportNotebook(richSession(), META, { readAttachment });
    const shape = nb.cells.map((c) => `${c.cell_type}:${(c.metadata.oi as { role: string }).role}`);
    expect(shape).toEqual([
      'markdown:user',
      'markdown:assistant',
      ...Array(8).fill('code:code'),
      'code:code', // the failed run
      'raw:code', // declined: never runnable
      'code:code', // timeout
      'code:code', // unavailable runtime
      'raw:notice',
      'markdown:user', // an empty message still marks a turn
      // the empty assistant turn has no cell
      'markdown:assistant',
    ]);
    expect(nb.nbformat).toBe(4);
    expect(nb.nbformat_minor).toBe(5);
    expect(new Set(nb.cells.map((c) => c.id)).size).toBe(nb.cells.length);
  });

  it('keeps execution counts, outputs 1:1 as Jupyter writes them, and run metadata', () => {
    const conv = richSession();
    const nb = exportNotebook(conv, META, { readAttachment });
    const code = nb.cells.filter((c) => c.cell_type === 'code');
    const first = code[0]!;
    expect(first.execution_count).toBe(conv.items.find((i) => i.kind === 'cell')!.executionCount);
    expect(first.outputs).toEqual([
      { output_type: 'stream', name: 'stdout', text: ['rows: 3\n'] },
      { output_type: 'stream', name: 'stderr', text: ['warn\n'] },
    ]);
    expect(first.source).toEqual(['import sys\n', 'print("rows: 3")\n', 'print("warn", file=sys.stderr)']);
    expect(first.metadata.oi).toMatchObject({
      role: 'code',
      language: 'python',
      status: 'done',
      approval: 'user',
      durationMs: 12.5,
      exitCode: 0,
      step: 'step-1',
    });
    expect(first.metadata.execution).toBeDefined();
    // PNG stays one base64 string; text types become line lists.
    expect(code[1]!.outputs[0]).toMatchObject({ data: { 'image/png': PNG_1X1, 'text/plain': ['<Figure size 640x480 with 1 Axes>'] } });
    expect(code[2]!.outputs[0]).toMatchObject({
      execution_count: 3,
      data: { 'text/html': ['<table>\n', '<tr><td>1</td></tr>\n', '</table>'] },
    });
    expect(code[3]!.outputs[0]).toMatchObject({ data: { 'application/json': { a: [1, 2, { b: null }] } } });
    // Python splits at a lone \r too; so do we, to write what Jupyter writes.
    expect(code[4]!.outputs[0]).toMatchObject({ text: ['a.csv\n', 'b.csv\n', 'progress 10%\r', 'progress 100%\n'] });
    expect(code[6]!.outputs[0]).toMatchObject({
      text: ['crlf\r\n', 'vt\u000b', 'ff\u000c', 'fs\u001c', 'gs\u001d', 'rs\u001e', 'nel\u0085', 'ls\u2028', 'ps\u2029', 'end 🎉'],
    });
    expect(code[8]!.outputs[0]).toMatchObject({ output_type: 'error', ename: 'ZeroDivisionError' });
  });

  it('marks the notebook with the main language kernel and the app, model and conversation', () => {
    const nb = exportNotebook(richSession(), META, { readAttachment });
    expect(nb.metadata.kernelspec).toEqual({ name: 'python3', display_name: 'Python 3 (ipykernel)', language: 'python' });
    expect(nb.metadata.language_info).toMatchObject({ name: 'python', file_extension: '.py' });
    expect(nb.metadata.oi).toEqual({ ...META, conversationId: 'conv-1' });
    expect(nb.metadata.title).toBe('Sales analysis');
  });

  it('runs other languages through cell magics in a Python notebook, marked with their language', () => {
    const nb = exportNotebook(richSession(), META, { readAttachment });
    const firstLines = nb.cells
      .filter((c) => c.cell_type === 'code')
      .map((c) => [(c.metadata.oi as { language: string }).language, joined(c.source).split('\n')[0]]);
    expect(firstLines).toContainEqual(['shell', '%%bash']);
    expect(firstLines).toContainEqual(['javascript', '%%script node']);
    expect(firstLines).toContainEqual(['ruby', '%%ruby']);
    expect(firstLines).toContainEqual(['r', '%%script Rscript -']);
    expect(firstLines.filter(([language]) => language === 'python').every(([, line]) => !line!.startsWith('%%'))).toBe(true);
  });

  it('gives a mostly-shell session the Python kernel, which every Jupyter has, with its shell cells as %%bash', () => {
    const conv = conversation([cell('bash', 'ls', [stdout('a\n')]), cell('shell', 'pwd'), cell('python', 'print(1)')]);
    const nb = exportNotebook(conv, META);
    expect(nb.metadata.kernelspec).toMatchObject({ name: 'python3' });
    expect(nb.metadata.language_info).toMatchObject({ name: 'python' });
    expect(nb.cells.map((c) => joined(c.source))).toEqual(['%%bash\nls', '%%bash\npwd', 'print(1)']);
    expect(nb.cells.map((c) => (c.metadata.oi as { language: string }).language)).toEqual(['bash', 'shell', 'python']);
  });

  it('runs zsh cells through zsh, not bash, and reads them back as zsh', () => {
    const conv = conversation([cell('python', 'x = 1'), cell('zsh', 'print -l ${(s:,:)list}'), cell('bash', 'ls')]);
    const nb = exportNotebook(conv, META);
    const sources = nb.cells.map((c) => joined(c.source));
    expect(sources).toEqual(['x = 1', '%%script zsh\nprint -l ${(s:,:)list}', '%%bash\nls']);
    expect(languageFromMagic(sources[1]!)).toEqual({ language: 'zsh', code: 'print -l ${(s:,:)list}', magic: '%%script zsh\n' });
    expect(languageFromMagic(sources[2]!)).toEqual({ language: 'shell', code: 'ls', magic: '%%bash\n' });
  });

  it('runs a `shell` cell that ran in zsh through zsh, records that, and reads it back the same', async () => {
    const zshCode = 'list=a,b; print -l ${(s:,:)list}';
    const conv = conversation([
      cell('python', 'x = 1'),
      cell('shell', zshCode, [stdout('a\nb\n')], { shell: 'zsh' }),
      cell('shell', 'echo $BASH_VERSINFO', [stdout('5\n')], { shell: 'bash' }),
      cell('zsh', 'echo $ZSH_NAME', [stdout('bash\n')], { shell: 'bash' }), // zsh was missing: still zsh code
      cell('python', 'y = 2'),
    ]);
    const nb = exportNotebook(conv, META);
    const sources = nb.cells.map((c) => joined(c.source));
    expect(sources).toEqual(['x = 1', `%%script zsh\n${zshCode}`, '%%bash\necho $BASH_VERSINFO', '%%script zsh\necho $ZSH_NAME', 'y = 2']);
    // The cell stays a `shell` cell for the app; the shell it ran in is kept beside its language.
    expect(nb.cells[1]!.metadata.oi).toMatchObject({ language: 'shell', shell: 'zsh' });
    expect(nb.cells[2]!.metadata.oi).toMatchObject({ language: 'shell', shell: 'bash' });
    expect(nb.cells[0]!.metadata.oi).not.toHaveProperty('shell');
    expectOwnSchema(nb);

    // Mostly zsh-run `shell` cells: still the Python kernel (a zsh kernel is rarely installed), through zsh.
    const zshMostly = exportNotebook(
      conversation([
        cell('shell', 'setopt extended_glob', [], { shell: 'zsh' }),
        cell('terminal', 'print -l *', [], { shell: 'zsh' }),
        cell('python', 'print(1)'),
      ]),
      META,
    );
    expect(zshMostly.metadata.kernelspec).toMatchObject({ name: 'python3', language: 'python' });
    expect(zshMostly.cells.map((c) => joined(c.source))).toEqual([
      '%%script zsh\nsetopt extended_glob',
      '%%script zsh\nprint -l *',
      'print(1)',
    ]);
    expectOwnSchema(zshMostly);
    expect(await jupyter.validate([nb, zshMostly].map(serializeNotebook))).toEqual([null, null]);

    // Round trip: the same items come back (language and shell), and export again gives the same bytes.
    for (const exported of [nb, zshMostly]) {
      const text = serializeNotebook(exported);
      const imported = importNotebook(text, { maxBytes: 10 * 1024 ** 2, now: '2026-01-01T00:00:00.000Z' });
      expect(imported.warnings).toEqual([]);
      const cells = imported.conversationItems.filter((i) => i.kind === 'cell');
      expect(cells.map((c) => [c.language, c.shell])).toEqual(
        exported.cells.map((c) => {
          const oi = c.metadata.oi as { language: string; shell?: string };
          return [oi.language, oi.shell];
        }),
      );
      expect(cells[1]?.code).toBe(exported === nb ? zshCode : 'print -l *');
      const again = conversation(imported.conversationItems, { id: conv.id, title: imported.title });
      expect(serializeNotebook(exportNotebook(again, META))).toBe(text);
    }
  });

  it.runIf(installed('zsh'))('has Jupyter run such a cell in zsh', async () => {
    const conv = conversation([
      cell('python', 'x = 1'),
      cell('shell', 'list=a,b; print -l ${(s:,:)list}; echo $ZSH_NAME', [], { shell: 'zsh' }),
    ]);
    const executed = JSON.parse(await jupyter.execute(serializeNotebook(exportNotebook(conv, META)))) as {
      cells: Array<{ outputs?: Array<{ name?: string; text?: string | string[] }> }>;
    };
    const out = (executed.cells[1]?.outputs ?? [])
      .filter((o) => o.name === 'stdout')
      .map((o) => joined(o.text ?? ''))
      .join('');
    expect(out).toBe('a\nb\nzsh\n');
  });

  it('keeps images dropped into the chat as attachments of the message cell and names other files', () => {
    const nb = exportNotebook(richSession(), META, { readAttachment });
    const message = nb.cells[0]!;
    expect(message.cell_type).toBe('markdown');
    if (message.cell_type !== 'markdown') return;
    expect(message.attachments).toEqual({ 'screen_shot__1_.png': { 'image/png': PNG_1X1 } });
    // Quoted under a "User:" heading, so the user's words read as theirs in Jupyter.
    expect(joined(message.source)).toBe(
      '**User:**\n\n> Plot the sales data, please. Here is a screenshot:\n>\n> ![screen shot \\[1\\].png](attachment:screen_shot__1_.png)\n> *Attached: data.csv*',
    );
  });

  it('never reads attachments from outside the workspace', () => {
    const asked: string[] = [];
    const conv = conversation([user('look', [{ path: '../../etc/passwd', name: 'passwd.png', mime: 'image/png', size: 1 }])]);
    const nb = exportNotebook(conv, META, { readAttachment: (p) => (asked.push(p), Buffer.from('x')) });
    expect(asked).toEqual([]);
    expect(nb.cells[0]).not.toHaveProperty('attachments');
  });

  it('writes code the user declined or has not approved as raw cells, which Jupyter never runs', () => {
    const conv = conversation([
      cell('shell', 'rm -rf /', [], { status: 'skipped', approval: 'declined' }),
      cell('python', 'print(2)', [], { status: 'awaiting-approval', approval: null }),
      cell('python', 'pri', [], { status: 'streaming', approval: null }),
    ]);
    const nb = exportNotebook(conv, META);
    expect(nb.cells.map((c) => c.cell_type)).toEqual(['raw', 'raw', 'raw']);
    expect(nb.cells.map((c) => (c.metadata.oi as { status: string }).status)).toEqual(['skipped', 'awaiting-approval', 'streaming']);
    expect(joined(nb.cells[0]!.source)).toBe('rm -rf /'); // no magic: it is not meant to run
  });

  it('gives cells unique valid ids even when item ids are long, odd or repeated', () => {
    const long = 'x'.repeat(100);
    const conv = conversation([
      { ...cell('python', 'a'), id: long },
      { ...cell('python', 'b'), id: long },
      { ...cell('python', 'c'), id: 'same' },
      { ...cell('python', 'd'), id: 'same' },
    ]);
    const ids = exportNotebook(conv, META).cells.map((c) => c.id);
    expect(new Set(ids).size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(ids[2]).toBe('same');
  });

  it('passes the app schema and nbformat.validate for every exported notebook', async () => {
    const notebooks = [
      exportNotebook(richSession(), META, { readAttachment }),
      exportNotebook(richSession(), META), // without attachment bytes
      exportNotebook(pythonShellSession(), META),
      exportNotebook(conversation([]), META),
      exportNotebook(conversation([cell('bash', 'ls', [stdout('a\n')]), cell('python', '1/0')]), META),
    ];
    for (const nb of notebooks) expectOwnSchema(nb);
    expect(await jupyter.validate(notebooks.map(serializeNotebook))).toEqual(notebooks.map(() => null));
  });

  it('writes byte for byte what nbformat itself writes for the same notebook', async () => {
    for (const conv of [richSession(), pythonShellSession()]) {
      const text = serializeNotebook(exportNotebook(conv, META, { readAttachment }));
      expect(text.endsWith('}\n')).toBe(true);
      expect(text.split('\n')[1]).toBe(' "cells": [');
      expect(`${await jupyter.rewrite(text)}\n`).toBe(text);
    }
  });
});
