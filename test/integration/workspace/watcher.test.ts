import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkspaceWatchers } from '../../../src-main/core/workspace/workspace-watcher';
import { tempWorkspace } from './temp-workspace';

describe('watching a workspace', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  let watchers: WorkspaceWatchers;
  const seen: Array<{ id: string; paths: string[] }> = [];
  beforeEach(() => {
    ws = tempWorkspace();
    mkdirSync(path.join(ws.root, 'out'), { recursive: true });
    seen.length = 0;
    watchers = new WorkspaceWatchers((id, paths) => seen.push({ id, paths }), { debounceMs: 50, maxWatched: 1 });
  });
  afterEach(() => {
    watchers.dispose();
    ws.cleanup();
  });

  const settle = () => new Promise((r) => setTimeout(r, 300));

  it('reports files written in nested folders in one batch, and ignores .oi/', async () => {
    expect(watchers.watch('c1', ws.root)).toBe(true);
    mkdirSync(path.join(ws.root, '.oi'), { recursive: true });
    writeFileSync(path.join(ws.root, '.oi', 'spill.log'), 'x');
    writeFileSync(path.join(ws.root, 'out', 'a.csv'), '1');
    writeFileSync(path.join(ws.root, 'b.txt'), '2');
    await settle();
    expect(seen).toHaveLength(1);
    expect(seen[0]?.id).toBe('c1');
    expect(new Set(seen[0]?.paths)).toEqual(new Set(['out/a.csv', 'b.txt']));
  });

  it('stops watching the least recently opened workspace past the limit', async () => {
    const other = path.join(ws.root, 'out');
    watchers.watch('c1', ws.root);
    watchers.watch('c2', other);
    writeFileSync(path.join(ws.root, 'ignored.txt'), 'x');
    await settle();
    expect(seen.every((s) => s.id === 'c2')).toBe(true);
  });
});
