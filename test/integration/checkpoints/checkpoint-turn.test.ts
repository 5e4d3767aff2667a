import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installed } from '../../support/installed';
import { useAgentHarness } from '../../support/use-agent-harness';
import { treeState } from './support/tree-state';

const startHarness = useAgentHarness();

/** Each language creates, overwrites, renames and deletes files in its own way. */
const cells: Array<{ language: string; code: string; needs?: string }> = [
  {
    language: 'python',
    code: "open('made-by-python.txt','w').write('py')\nopen('keep.txt','w').write('overwritten by python')\nimport os\nos.rename('old-name.txt','new-name.txt')",
  },
  {
    language: 'javascript',
    code: "const fs = require('fs'); fs.writeFileSync('made-by-node.bin', Buffer.from([0,1,2,255])); fs.unlinkSync('doomed.txt');",
  },
  { language: 'r', code: "writeLines('from R', 'made-by-r.txt')", needs: 'Rscript' },
  { language: 'shell', code: 'mkdir -p out/deep && echo shell > out/deep/s.txt && rm -rf data' },
];

describe('checkpoints in a turn', () => {
  it('records what each cell changed, tells the model, and rewinds to before any cell', async () => {
    const h = await startHarness({ settings: { autoRun: true }, checkpoints: true });
    const id = await h.newConversation();
    const workspace = (await h.agent.snapshot(id)).workspace;
    writeFileSync(path.join(workspace, 'keep.txt'), 'original');
    writeFileSync(path.join(workspace, 'old-name.txt'), 'renamed content that is long enough to be recognised as a rename');
    writeFileSync(path.join(workspace, 'doomed.txt'), 'to be deleted');
    const original = treeState(workspace);

    const runnable = cells.filter((c) => !c.needs || installed(c.needs));
    runnable.forEach((c, i) =>
      h?.llm.enqueue({ kind: 'tool', calls: [{ id: `call_${i}`, name: 'execute', arguments: { language: c.language, code: c.code } }] }),
    );
    h.llm.enqueue({ kind: 'text', text: 'All done.' });
    await h.send(id, 'change some files');

    const conv = await h.agent.snapshot(id);
    const done = conv.items.filter((i) => i.kind === 'cell');
    expect(done.map((c) => c.kind === 'cell' && c.status)).toEqual(runnable.map(() => 'done'));
    const py = done[0];
    expect(py?.kind === 'cell' && py.changes?.files).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'made-by-python.txt', change: 'created', size: 2 }),
        expect.objectContaining({ path: 'keep.txt', change: 'modified', previousSize: 8 }),
        expect.objectContaining({ path: 'new-name.txt', change: 'renamed', from: 'old-name.txt' }),
      ]),
    );
    expect(py?.kind === 'cell' && py.resultForModel).toMatch(/Files changed in the workspace:\n(.+\n)*created made-by-python.txt \(2 B\)/);
    const node = done[1];
    expect(node?.kind === 'cell' && node.changes?.files.map((f) => `${f.change} ${f.path}`).sort()).toEqual([
      'created made-by-node.bin',
      'deleted doomed.txt',
    ]);

    // Rewind to before the first cell: the workspace is as it was, and the model hears of it.
    const first = done[0]?.id ?? '';
    expect(await h.agent.rewind(id, first, { confirm: false, cut: false })).toMatchObject({ status: 'restored' });
    expect(treeState(workspace)).toEqual(original);
    expect(existsSync(path.join(workspace, 'made-by-python.txt'))).toBe(false);
    expect(readFileSync(path.join(workspace, 'keep.txt'), 'utf8')).toBe('original');
    h.llm.enqueue({ kind: 'text', text: 'Understood.' });
    await h.send(id, 'what now?');
    expect(JSON.stringify(h.bodies().at(-1))).toContain('rewound the workspace');
  });

  it('cuts the conversation back to the message that led to the cell when asked', async () => {
    const h = await startHarness({ settings: { autoRun: true }, checkpoints: true });
    const id = await h.newConversation();
    h.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'c1', name: 'execute', arguments: { language: 'shell', code: 'echo a > a.txt' } }] },
      { kind: 'text', text: 'made a' },
    );
    await h.send(id, 'make a');
    h.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'c2', name: 'execute', arguments: { language: 'shell', code: 'echo b > b.txt' } }] },
      { kind: 'text', text: 'made b' },
    );
    await h.send(id, 'make b');
    const conv = await h.agent.snapshot(id);
    const second = conv.items.filter((i) => i.kind === 'cell')[1];
    await h.agent.rewind(id, second?.id ?? '', { confirm: false, cut: true });
    const after = await h.agent.snapshot(id);
    expect(after.items.filter((i) => i.kind === 'user').map((i) => (i.kind === 'user' ? i.text : ''))).toEqual(['make a']);
    expect(existsSync(path.join(conv.workspace, 'b.txt'))).toBe(false);
    expect(existsSync(path.join(conv.workspace, 'a.txt'))).toBe(true);
  });
});
