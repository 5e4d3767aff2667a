import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/** A fresh folder under the OS temp dir, and a sibling "outside" folder for escape attempts. */
export function tempWorkspace(): { root: string; outside: string; cleanup(): void } {
  const base = mkdtempSync(path.join(os.tmpdir(), 'oi-ws-'));
  const root = path.join(base, 'workspace');
  const outside = path.join(base, 'outside');
  for (const dir of [root, outside]) rmSync(dir, { recursive: true, force: true });
  return {
    root,
    outside,
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

/** The workspace of the test that is running (useTempWorkspace): its folder and one outside it. */
export interface CurrentWorkspace {
  readonly root: string;
  readonly outside: string;
}

/**
 * A fresh workspace and outside folder (both created) for each test of the calling describe, then
 * `fill` (the files the describe's tests start from); read `root` and `outside` inside a test.
 */
export function useTempWorkspace(fill?: (ws: CurrentWorkspace) => void): CurrentWorkspace {
  let ws: ReturnType<typeof tempWorkspace> | null = null;
  beforeEach(() => {
    ws = tempWorkspace();
    mkdirSync(ws.root, { recursive: true });
    mkdirSync(ws.outside, { recursive: true });
    fill?.(ws);
  });
  afterEach(() => ws?.cleanup());
  const view = {} as CurrentWorkspace;
  for (const key of ['root', 'outside'] as const)
    Object.defineProperty(view, key, {
      get: () => {
        if (!ws) throw new Error('useTempWorkspace: no test is running');
        return ws[key];
      },
    });
  return view;
}
