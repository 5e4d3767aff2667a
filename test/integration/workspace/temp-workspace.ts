import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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
