import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The run's own temporary folder (issue 36: runs left oi-e2e-*, oi-sandbox-*, oi-wsreq-*… in /tmp).
 * vitest.config.ts points TMPDIR at it before any test process starts, so every temporary folder a
 * test, the app under test or a program it starts makes through TMPDIR lands inside; when the run's
 * main process exits, what is still there is named (by prefix, so the test that left it can be found)
 * and the folder goes, whether or not a test cleaned up after itself. Still under /tmp, as before: a
 * sandbox sees it exactly as it saw /tmp's folders (it sets its own TMPDIR inside).
 */
export const RUN_TMP_VARIABLE = 'OI_TEST_RUN_TMP';

/** Makes the run's temporary folder and points TMPDIR at it (once per run; a nested run keeps its parent's). */
export function useRunTmp(): string {
  const existing = process.env[RUN_TMP_VARIABLE];
  if (existing && existsSync(existing)) return existing;
  const dir = mkdtempSync(join(tmpdir(), 'oi-run-'));
  // Open to every user as /tmp is (sticky): tests run programs as another user (permission checks,
  // the sandbox's user mapping), which mkdtemp's 0700 would stop on the way in.
  chmodSync(dir, 0o1777);
  process.env[RUN_TMP_VARIABLE] = dir;
  process.env.TMPDIR = dir;
  process.once('exit', () => {
    const left = leftovers(dir);
    // Written directly: the reporter has printed its summary, and at exit only synchronous writes land.
    if (left.length > 0) writeSync(1, `\nleft in the temporary folder by tests (removed now): ${left.join(', ')}\n`);
    removeAll(dir);
  });
  return dir;
}

/** What is in `dir`, by name with mkdtemp's random tail cut (so "oi-e2e- 3"), most first. */
export function leftovers(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const counts = new Map<string, number>();
  // tsx's compile cache (tsx-<uid>): a cache for the run's processes, not something a test left.
  for (const name of names.filter((n) => !/^tsx-\d+$/.test(n))) {
    const prefix = name.replace(/[A-Za-z0-9]{6}$/, '');
    counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([prefix, count]) => `${prefix} ${count}`);
}

/** Removes `dir`, also where a test left a folder without write permission (made read-only on purpose). */
function removeAll(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    spawnSync('chmod', ['-R', 'u+rwx', dir], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
  }
}
