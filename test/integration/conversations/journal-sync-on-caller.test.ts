import { spawnSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConversationJournal, journalText } from '../../../src-main/core/conversations/conversation-journal';
import { ConversationStore } from '../../../src-main/core/conversations/conversation-store';
import { newCell } from '../../../src-main/core/conversations/new-cell';

// `oi mcp` over stdio syncs each journal line on its own thread (ConversationJournal's
// `syncOnCaller`): its one client waits for the sync anyway, and a trip through libuv's thread pool
// costs two wake-ups on the call's path (issue 37). What shows it: with every pool thread held
// (opens of a FIFO that no one writes yet, released at the end), a line is still written, synced and
// its add() resolved; the twin, the journal as the desktop app uses it, waits for a pool thread.

const POOL = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
const dirs: string[] = [];
const release: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const free of release.splice(0)) await free();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** This process's threads blocked opening a FIFO that has no other side yet (Linux's wchan). */
function threadsInFifoOpen(): number {
  let n = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      if (readFileSync(`/proc/self/task/${tid}/wchan`, 'utf8') === 'wait_for_partner') n++;
    } catch {
      // the thread ended meanwhile
    }
  }
  return n;
}

/** Holds every thread of libuv's pool (waited for until each is blocked) until the returned function is called (or the test ends). */
async function holdThePool(dir: string): Promise<() => Promise<void>> {
  const fifo = path.join(dir, 'hold');
  expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
  const held = Array.from({ length: POOL }, () => open(fifo, 'r').then((h) => h.close()));
  let freed: Promise<void> | null = null;
  // Opened for reading and writing (Linux), a FIFO never blocks its opener, and while it is open every
  // open for reading returns at once: those blocked now and any a loaded machine has not started yet.
  const free = (): Promise<void> =>
    (freed ??= (async () => {
      const fd = openSync(fifo, constants.O_RDWR);
      try {
        await Promise.all(held);
      } finally {
        closeSync(fd);
      }
    })());
  release.push(free);
  await expect.poll(threadsInFifoOpen).toBeGreaterThanOrEqual(POOL);
  return free;
}

/** Turns of the event loop, for work that is not waiting on anything to get done. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

const cell = (n: number) =>
  newCell({ id: `c${n}`, step: `s${n}`, toolCallId: null, language: 'python', code: `print(${n})`, status: 'done' });

async function journalWithOneLine(syncOnCaller: boolean) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'oi-journal-caller-'));
  dirs.push(dir);
  const store = new ConversationStore(dir, () => dir);
  const conv = await store.create('stdio');
  const journal = new ConversationJournal(store, conv, { compactIdleMs: 3_600_000, syncOnCaller });
  // The journal's file is created (opened, synced with its folder) through the pool, once.
  conv.items.push(cell(1));
  await journal.add(cell(1));
  return { dir, store, conv, journal };
}

describe.skipIf(process.platform === 'win32')('conversation journal, synced on the caller’s thread', () => {
  it('writes, syncs and resolves a line while every pool thread is held; the pool’s way waits for one', async () => {
    const caller = await journalWithOneLine(true);
    const freeCaller = await holdThePool(caller.dir);
    caller.conv.items.push(cell(2));
    await caller.journal.add(cell(2));
    expect(
      journalText(readFileSync(caller.store.journalOf(caller.conv.id), 'utf8'))
        .trim()
        .split('\n'),
    ).toHaveLength(2);
    await freeCaller();
    await caller.journal.close();

    // Twin: the same line through the pool is not done while the pool is held.
    const pooled = await journalWithOneLine(false);
    const freePooled = await holdThePool(pooled.dir);
    pooled.conv.items.push(cell(2));
    let resolved = false;
    const adding = pooled.journal.add(cell(2)).then(() => (resolved = true));
    await turns(20);
    expect(resolved).toBe(false);
    await freePooled();
    await adding;
    expect(resolved).toBe(true);
    await pooled.journal.close();
  });
});
