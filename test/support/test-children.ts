import type { ChildProcess } from 'node:child_process';
import { onTestFinished } from 'vitest';

/** What a helper starts: a child process or a pseudo-terminal (both have a pid and kill). */
export interface Killable {
  readonly pid?: number | undefined;
  kill(signal?: NodeJS.Signals): unknown;
}

interface Owned {
  child: Killable;
  /** The child leads a process group of its own (spawned `detached`, or a pty's session). */
  group: boolean;
  gone: boolean;
}

/** Started and not known to be gone; whatever is left when its file ends is killed then (endLeftovers). */
const live = new Set<Owned>();
process.once('exit', endLeftovers);

/**
 * Kills what is left: called after each test file's own afterAll hooks (test/support/file-cleanup.ts,
 * a setupFile), because files that share a test process (vitest's `isolate: false`) no longer end
 * with their process; and at the process's exit, in case a file could not run its hooks.
 */
export function endLeftovers(): void {
  for (const owned of live) end(owned);
}

function end(owned: Owned): void {
  live.delete(owned);
  const { child, group } = owned;
  try {
    // The group is ended even after its leader exited: what the leader started may still be in it.
    if (group && typeof child.pid === 'number') process.kill(-child.pid, 'SIGKILL');
    else if (!owned.gone) child.kill('SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * Ends `child` when the test that started it finishes — passed, failed or timed out — so a test that
 * stops early (a failed expect, vitest's timeout) leaves no process behind: one `oi -m` once outlived
 * its timed-out test by 24 minutes. Started outside a test (a beforeAll) it is the caller's to end in
 * afterAll, and is killed when its test file ends at the latest. `group`: the child leads a
 * process group of its own, and the whole group is killed with it.
 */
export function endWithTest<T extends Killable>(child: T, options: { group?: boolean; exited?: (listener: () => void) => void } = {}): T {
  const owned: Owned = { child, group: options.group === true, gone: false };
  live.add(owned);
  const exited = options.exited ?? ((listener: () => void) => (child as Partial<ChildProcess>).once?.('exit', listener));
  exited(() => {
    owned.gone = true;
    if (!owned.group) live.delete(owned);
  });
  try {
    onTestFinished(() => end(owned));
  } catch {
    // Not inside a test (vitest says so by throwing): the caller's afterAll ends it, or the exit hook.
  }
  return child;
}
