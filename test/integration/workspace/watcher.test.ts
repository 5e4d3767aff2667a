import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WorkspaceWatchers } from '../../../src-main/core/workspace/workspace-watcher';
import { tempWorkspace } from './support/temp-workspace';

// Real inotify watches. The tests wait for the notices themselves (polling), never for a time: the
// files are written synchronously, so the kernel has queued all their events before the watcher's
// first read, and they fall into one debounce window however slow the machine.

describe('watching a workspace', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  let watchers: WorkspaceWatchers;
  const seen: Array<{ id: string; paths: string[] }> = [];
  const pathsSeen = (id: string) => seen.filter((s) => s.id === id).flatMap((s) => s.paths);
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

  it('reports files written in nested folders in one batch, and ignores .oi/', async () => {
    expect(watchers.watch('c1', ws.root)).toBe(true);
    mkdirSync(path.join(ws.root, '.oi'), { recursive: true });
    writeFileSync(path.join(ws.root, '.oi', 'spill.log'), 'x');
    writeFileSync(path.join(ws.root, 'out', 'a.csv'), '1');
    writeFileSync(path.join(ws.root, 'b.txt'), '2');
    await vi.waitFor(() => expect(new Set(pathsSeen('c1'))).toEqual(new Set(['out/a.csv', 'b.txt'])), { timeout: 15_000, interval: 50 });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.id).toBe('c1');
  });

  it('stops watching the least recently opened workspace past the limit', async () => {
    const other = path.join(ws.root, 'out');
    expect(watchers.watch('c1', ws.root)).toBe(true);
    expect(watchers.watch('c2', other)).toBe(true);
    // Two rounds, each a change in c1's folder and then one in c2's: by the time c2's second notice is
    // in, a notice of c1's (were it still watched) would have come too, its events having been read
    // no later than c2's.
    for (const round of [1, 2]) {
      writeFileSync(path.join(ws.root, `ignored-${round}.txt`), 'x');
      writeFileSync(path.join(other, `seen-${round}.txt`), 'x');
      await vi.waitFor(() => expect(pathsSeen('c2')).toContain(`seen-${round}.txt`), { timeout: 15_000, interval: 50 });
    }
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((s) => s.id !== 'c2')).toEqual([]);
  });

  it('still reports the workspace it stopped watching, once it is opened again', async () => {
    watchers.watch('c1', ws.root);
    watchers.watch('c2', path.join(ws.root, 'out'));
    watchers.watch('c1', ws.root);
    writeFileSync(path.join(ws.root, 'back.txt'), 'x');
    await vi.waitFor(() => expect(pathsSeen('c1')).toContain('back.txt'), { timeout: 15_000, interval: 50 });
  });
});
