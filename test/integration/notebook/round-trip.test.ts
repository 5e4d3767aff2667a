import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Conversation, ConversationItem } from '@contract';
import { ConversationItem as ConversationItemSchema } from '@contract';
import { exportNotebook, serializeNotebook } from '../../../src-main/core/notebook/ipynb-export';
import { importNotebook } from '../../../src-main/core/notebook/ipynb-import';
import { assistant, cell, conversation, notice, PNG_1X1, stdout, user } from './support/conversation-builders';
import { pythonShellSession, richSession } from './support/sessions';

const META = { appVersion: '0.1.0', provider: 'anthropic', model: 'claude' };
const OPTS = { maxBytes: 200 * 1024 ** 2, now: '2026-01-01T00:00:00.000Z' };

/** A workspace in memory: attachment reads for export, filled by the files an import hands back. */
function memoryWorkspace(root: string, files: Record<string, Uint8Array> = {}) {
  const store = new Map(Object.entries(files).map(([rel, data]) => [path.join(root, rel), data]));
  return {
    write: (rel: string, data: Uint8Array) => store.set(path.join(root, rel), data),
    readAttachment: (absolute: string) => store.get(absolute) ?? null,
  };
}

function roundTrip(conv: Conversation, files: Record<string, Uint8Array> = {}) {
  const first = serializeNotebook(exportNotebook(conv, META, memoryWorkspace(conv.workspace, files)));
  const imported = importNotebook(first, OPTS);
  const workspace = memoryWorkspace('/tmp/another-workspace');
  for (const file of imported.files) workspace.write(file.path, file.data);
  const again = conversation(imported.conversationItems, { id: conv.id, title: imported.title, workspace: '/tmp/another-workspace' });
  const second = serializeNotebook(exportNotebook(again, META, workspace));
  return { first, second, imported };
}

/** The conversation as a notebook can hold it: prose-less assistant turns and thinking are not kept. */
function keptItems(items: ConversationItem[]): unknown[] {
  return items
    .filter((i) => !(i.kind === 'assistant' && i.text.trim() === ''))
    .map((i) => {
      if (i.kind === 'assistant') return { ...i, thinking: [] };
      if (i.kind === 'cell') return { ...i, resultForModel: null };
      return i;
    });
}

describe('notebook round trip', () => {
  it('conversation → export → import → export gives the same cells, outputs, order and metadata', () => {
    const conv = richSession();
    // Only images travel inside a notebook; the CSV is covered by its own test below.
    const first = conv.items[0]!;
    if (first.kind === 'user') first.attachments = first.attachments.filter((a) => a.mime.startsWith('image/'));
    const { first: a, second: b, imported } = roundTrip(conv, { 'attachments/screen.png': Buffer.from(PNG_1X1, 'base64') });
    expect(imported.warnings).toEqual([]);
    expect(b).toBe(a);
  });

  it('gives back the items that went out, attachments and all', () => {
    const conv = richSession();
    const first = conv.items[0]!;
    if (first.kind === 'user') first.attachments = first.attachments.filter((a) => a.mime.startsWith('image/'));
    const { imported } = roundTrip(conv, { 'attachments/screen.png': Buffer.from(PNG_1X1, 'base64') });
    // Cells read from a file are marked as such (their HTML scripts wait for a re-run); the rest is as it went out.
    expect(imported.conversationItems.filter((i) => i.kind === 'cell').every((i) => i.imported === true)).toBe(true);
    const items = imported.conversationItems.map((i) => (i.kind === 'cell' ? { ...i, resultForModel: null, imported: undefined } : i));
    expect(items).toEqual(keptItems(conv.items));
    for (const item of imported.conversationItems) expect(ConversationItemSchema.safeParse(item).success).toBe(true);
    expect(imported.files.map((f) => [f.path, Buffer.from(f.data).toString('base64')])).toEqual([['attachments/screen.png', PNG_1X1]]);
    expect(imported.title).toBe(conv.title);
    expect(imported.language).toBe('python');
  });

  it('round-trips a session whose main language is the shell, with Python cells inside it', () => {
    const conv = conversation([
      user('list files'),
      cell('shell', 'ls', [stdout('a\nb\n')]),
      cell('shell', 'echo hi', [stdout('hi\n')]),
      cell('python', 'print(1)', [stdout('1\n')]),
      assistant('Two files.'),
    ]);
    const { first, second, imported } = roundTrip(conv);
    expect(second).toBe(first);
    // Shell cells export as %%bash in a Python notebook (docs/notebooks.md, "Main language and magics").
    expect(imported.language).toBe('python');
    expect(imported.conversationItems.map((i) => (i.kind === 'cell' ? `${i.language}:${i.code}` : i.kind))).toEqual([
      'user',
      'shell:ls',
      'shell:echo hi',
      'python:print(1)',
      'assistant',
    ]);
  });

  it('round-trips the Python + shell session and notices', () => {
    const conv = pythonShellSession();
    conv.items.push(notice('Budget reached.', 'error'));
    const { first, second } = roundTrip(conv);
    expect(second).toBe(first);
  });

  it('names files that are not images and says on import that they were not in the notebook', () => {
    const conv = conversation([user('see attached', [{ path: 'attachments/d.csv', name: 'd.csv', mime: 'text/csv', size: 3 }])]);
    const { imported } = roundTrip(conv, { 'attachments/d.csv': Buffer.from('a,b') });
    expect(imported.conversationItems[0]).toMatchObject({ kind: 'user', text: 'see attached', attachments: [] });
    expect(imported.warnings).toEqual([expect.stringContaining('"d.csv" is not inside the notebook')]);
  });

  it('freezes cells that were still pending when exported', () => {
    const conv = conversation([
      cell('python', 'print(1)', [], { status: 'awaiting-approval', approval: null, executionCount: null }),
      cell('python', 'while True: pass', [stdout('x\n')], { status: 'running', executionCount: null }),
    ]);
    const { imported } = roundTrip(conv);
    expect(imported.conversationItems.map((i) => i.kind === 'cell' && [i.status, i.approval])).toEqual([
      ['skipped', null],
      ['interrupted', 'user'],
    ]);
    expect(imported.warnings).toHaveLength(2);
  });
});

describe('an automatic install in a notebook', () => {
  it('exports as a %pip install cell that Jupyter accepts, and imports back as the install notice', async () => {
    const { startJupyter } = await import('../../support/jupyter');
    const installed = {
      ...notice('Installed requests (python -m pip install requests).', 'info'),
      install: { manager: 'pip' as const, packages: ['requests'], command: 'python -m pip install requests', ok: true },
    };
    const conv = conversation([
      user('fetch a page'),
      installed,
      cell('python', 'import requests\nprint(requests.__name__)', [stdout('requests\n')]),
    ]);
    const nb = exportNotebook(conv, META);
    const code = nb.cells.filter((c) => c.cell_type === 'code');
    expect(code.map((c) => (Array.isArray(c.source) ? c.source.join('') : c.source))).toEqual([
      '%pip install requests',
      'import requests\nprint(requests.__name__)',
    ]);
    const jupyter = startJupyter();
    try {
      expect(await jupyter.validate([serializeNotebook(nb)])).toEqual([null]);
    } finally {
      jupyter.dispose();
    }
    const back = importNotebook(serializeNotebook(nb), OPTS).conversationItems.find((i) => i.kind === 'notice');
    expect(back).toEqual(installed);
  });
});
