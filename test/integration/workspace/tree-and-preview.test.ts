import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { previewFile, PREVIEW_LIMITS } from '../../../src-main/core/workspace/file-preview';
import { listTree } from '../../../src-main/core/workspace/workspace-tree';
import { tempWorkspace } from './support/temp-workspace';

// The smallest valid PNG (1×1, transparent).
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

describe('the workspace tree', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(() => {
    ws = tempWorkspace();
    mkdirSync(path.join(ws.root, 'src', 'deep'), { recursive: true });
    mkdirSync(path.join(ws.root, 'node_modules', 'pkg'), { recursive: true });
    mkdirSync(path.join(ws.root, '.oi', 'outputs'), { recursive: true });
    writeFileSync(path.join(ws.root, 'z.txt'), 'z');
    writeFileSync(path.join(ws.root, 'a.py'), 'print(1)');
    writeFileSync(path.join(ws.root, 'src', 'main.py'), 'x = 1');
    writeFileSync(path.join(ws.root, 'src', 'deep', 'data.csv'), 'a,b');
    writeFileSync(path.join(ws.root, 'node_modules', 'pkg', 'index.js'), '');
    writeFileSync(path.join(ws.root, '.oi', 'outputs', 'run.log'), 'spill');
  });
  afterEach(() => ws.cleanup());

  it('lists folders before files, depth-first, without the app folder or opening node_modules', async () => {
    const tree = await listTree(ws.root);
    expect(tree.entries.map((e) => e.path)).toEqual([
      'node_modules',
      'src',
      'src/deep',
      'src/deep/data.csv',
      'src/main.py',
      'a.py',
      'z.txt',
    ]);
    expect(tree.entries.find((e) => e.path === 'a.py')).toMatchObject({ kind: 'file', size: 8 });
    expect(tree.truncated).toBe(false);
  });

  it('stops at the entry cap and says so', async () => {
    const tree = await listTree(ws.root, { maxEntries: 3 });
    expect(tree.entries).toHaveLength(3);
    expect(tree.truncated).toBe(true);
  });
});

describe('previewing a file', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(() => {
    ws = tempWorkspace();
    mkdirSync(ws.root, { recursive: true });
  });
  afterEach(() => ws.cleanup());
  const at = (name: string) => path.join(ws.root, name);

  it('sends images as base64 with their type', async () => {
    writeFileSync(at('plot.png'), PNG);
    const p = await previewFile(ws.root, 'plot.png');
    expect(p).toMatchObject({ kind: 'image', mime: 'image/png', size: PNG.length });
    expect(p.kind === 'image' && Buffer.from(p.dataBase64, 'base64').equals(PNG)).toBe(true);
  });

  it('sends text with a language for highlighting, cut at the limit without breaking a character', async () => {
    writeFileSync(at('script.py'), 'print("hi")\n');
    expect(await previewFile(ws.root, 'script.py')).toMatchObject({
      kind: 'text',
      language: 'python',
      truncated: false,
      text: 'print("hi")\n',
    });
    const big = 'é'.repeat(PREVIEW_LIMITS.textShownBytes); // 2 bytes each: twice the limit
    writeFileSync(at('big.txt'), `x${big}`);
    const p = await previewFile(ws.root, 'big.txt');
    expect(p.kind).toBe('text');
    if (p.kind !== 'text') return;
    expect(p.truncated).toBe(true);
    expect(p.text).not.toContain('\uFFFD');
  });

  it('gives notebooks their JSON, and binaries only metadata', async () => {
    writeFileSync(at('nb.ipynb'), '{"cells": [], "nbformat": 4}');
    expect(await previewFile(ws.root, 'nb.ipynb')).toMatchObject({ kind: 'notebook', text: '{"cells": [], "nbformat": 4}' });
    writeFileSync(at('blob.bin'), Buffer.from([1, 2, 0, 3]));
    expect(await previewFile(ws.root, 'blob.bin')).toMatchObject({ kind: 'meta', reason: 'binary file', size: 4 });
  });
});
