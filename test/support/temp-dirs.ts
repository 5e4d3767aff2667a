import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach } from 'vitest';

/**
 * Folders a test file makes in the run's temporary folder, removed after each test (or, with 'all',
 * after the file's tests, for what a beforeAll set up). Call it at the top of the file (or of a
 * describe) before the file's own after hooks: vitest runs those hooks last-registered first, so what
 * a test closed in its hooks is closed before its folders go.
 */
export function useTempDirs(prefix: string, scope: 'each' | 'all' = 'each'): (ownPrefix?: string) => string {
  const made: string[] = [];
  (scope === 'all' ? afterAll : afterEach)(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return (ownPrefix = prefix) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), ownPrefix));
    made.push(dir);
    return dir;
  };
}
