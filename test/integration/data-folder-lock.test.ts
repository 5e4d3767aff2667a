import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Schedule } from '@contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckpointRecords } from '../../src-main/core/checkpoints/checkpoint-records';
import { CheckpointService, type CheckpointServiceOptions } from '../../src-main/core/checkpoints/checkpoint-service';
import { DataFolderBusy, type LockHolder } from '../../src-main/core/fs/data-folder-lock';
import { startScheduleService } from '../../src-main/core/schedules/schedule-service';
import { ScheduleStore } from '../../src-main/core/schedules/schedule-store';
import { REPO } from '../support/built-output';
import { manualTask } from '../support/schedule-task';
import { endWithTest } from '../support/test-children';

// Issue 33, item 3: the desktop app, browser mode and `oi` share one data folder. The parts only one
// process may change at a time — a checkpoint store, the list of scheduled tasks, the in-app scheduler —
// take a lock in the data folder (src-main/core/fs/data-folder-lock.ts). The other process is a real one
// (test/support/data-lock-child.ts, the same lock code): the second waits, or fails naming the holder,
// and a killed holder's lock is taken over.

const TSX = pathToFileURL(path.join(REPO, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const CHILD = path.join(REPO, 'test', 'support', 'data-lock-child.ts');

/** Another process of the data folder, driven line by line. */
function otherProcess() {
  const child: ChildProcessWithoutNullStreams = endWithTest(
    spawn(process.execPath, ['--import', TSX, CHILD], {
      env: { ...process.env, TSX_TSCONFIG_PATH: path.join(REPO, 'tsconfig.test.json') },
      stdio: ['pipe', 'pipe', 'pipe'],
    }),
  );
  const lines: string[] = [];
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString('utf8')).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ask = async (line: string, answer: string) => {
    const seen = lines.length;
    child.stdin.write(`${line}\n`);
    const answered = () => lines.slice(seen).find((l) => l === answer || l.startsWith('error '));
    await expect.poll(answered, { timeout: 120_000 }).toBeDefined();
    expect(answered(), stderr).toBe(answer);
  };
  return {
    pid: child.pid ?? -1,
    hold: (file: string) => ask(`hold ${file}`, `held ${file}`),
    release: (file: string) => ask(`release ${file}`, `released ${file}`),
    checkpoints: (dataDir: string, workspace: string, n: number) => ask(`checkpoints ${dataDir} ${workspace} ${n}`, 'done'),
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

const SETTINGS = {
  checkpointMaxFileMb: 50,
  checkpointIgnoredMaxKb: 1024,
  checkpointBudgetMb: 1024,
  checkpointKeepDays: 30,
  // Every cell collects the store (git gc --prune=now): the operation that loses another's objects.
  checkpointStoreMaxMb: 0,
};

/** Room for every checkpoint: the store is collected only when a test wants it. */
const KEEP = { ...SETTINGS, checkpointStoreMaxMb: 1024 };

let root = '';
let other: ReturnType<typeof otherProcess>;
beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'oi-data-lock-'));
  other = otherProcess();
});
afterAll(async () => {
  await other.kill();
  rmSync(root, { recursive: true, force: true });
});

function folders(name: string) {
  const dataDir = path.join(root, name, 'data');
  const workspace = path.join(root, name, 'work');
  mkdirSync(dataDir, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  writeFileSync(path.join(workspace, 'a.txt'), 'first\n');
  return { dataDir, workspace };
}

/** The store's lock file: beside the workspace's bare repository in the data folder. */
function storeLock(dataDir: string): string {
  const stores = path.join(dataDir, 'checkpoints', 'stores');
  const [store] = readdirSync(stores).filter((n) => n.endsWith('.git'));
  return path.join(stores, `${store ?? 'none'}.lock`);
}

/** A checkpoint service (no journal) for the fresh folders `name`, and conversation "mine" in its workspace. */
function checkpointing(name: string, settings: ReturnType<CheckpointServiceOptions['settings']>, lock?: CheckpointServiceOptions['lock']) {
  const { dataDir, workspace } = folders(name);
  const service = new CheckpointService({ dataDir, journal: false, settings: () => settings, ...(lock ? { lock } : {}) });
  return { dataDir, workspace, service, conv: { id: 'mine', workspace } };
}

/** Every object each checkpoint of the store names, missing ones printed as `?<sha>` by git. */
async function missingObjects(dataDir: string): Promise<string[]> {
  const stores = path.join(dataDir, 'checkpoints', 'stores');
  const gitDir = path.join(stores, readdirSync(stores).find((n) => n.endsWith('.git')) ?? '');
  const trees: string[] = [];
  // Read as the app reads them: each list with the lines appended since it was last written whole.
  const records = new CheckpointRecords(path.join(dataDir, 'checkpoints'));
  for (const name of readdirSync(path.join(dataDir, 'checkpoints')).filter((n) => n.endsWith('.json'))) {
    const record = await records.load(name.slice(0, -'.json'.length));
    for (const e of record?.entries ?? []) trees.push(e.before, ...(e.after ? [e.after] : []));
  }
  expect(trees.length).toBeGreaterThan(0);
  const out = execFileSync('git', ['--git-dir', gitDir, 'rev-list', '--objects', '--missing=print', ...trees], { encoding: 'utf8' });
  return out.split('\n').filter((l) => l.startsWith('?'));
}

describe('the checkpoint store, shared with another process', () => {
  it('waits while another process holds the store, then records; a process that holds it too long is named in the error', async () => {
    const waitedFor: LockHolder[] = [];
    const { dataDir, workspace, service, conv } = checkpointing('wait', KEEP, { onWait: (h) => void waitedFor.push(h) });
    await service.after(conv, 'c0', await service.before(conv, 'c0'));
    const lock = storeLock(dataDir);
    await other.hold(lock);
    let settled = false;
    const before = service.before(conv, 'c1').finally(() => (settled = true));
    await expect.poll(() => waitedFor.map((h) => h.pid)).toEqual([other.pid]);
    expect(waitedFor[0]?.purpose).toBe('the test’s other process');
    expect(settled).toBe(false);

    // A second app with a short patience gives up, naming the holder and the lock file, and records nothing.
    const impatient = new CheckpointService({ dataDir, journal: false, settings: () => KEEP, lock: { waitMs: 300 } });
    const err: unknown = await impatient.before({ id: 'other', workspace }, 'x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataFolderBusy);
    expect((err as Error).message).toContain(
      `the checkpoint store of ${workspace} is in use by another Open Interpreter process (pid ${other.pid}`,
    );
    expect((err as Error).message).toContain(lock);
    expect(existsSync(path.join(dataDir, 'checkpoints', 'other.json'))).toBe(false);

    await other.release(lock);
    await before;
    expect((await service.list('mine')).checkpoints.map((c) => c.cellId)).toEqual(['c0', 'c1']);
    expect(existsSync(lock)).toBe(false);
  });

  it('takes over the lock of a process that was killed holding it', async () => {
    const { dataDir, service, conv } = checkpointing('stale', KEEP);
    await service.after(conv, 'c0', await service.before(conv, 'c0'));
    const lock = storeLock(dataDir);
    const doomed = otherProcess();
    await doomed.hold(lock);
    await doomed.kill();
    // Killed: it could not remove its lock, which still names it.
    expect((JSON.parse(readFileSync(lock, 'utf8')) as LockHolder).pid).toBe(doomed.pid);
    await service.after(conv, 'c1', await service.before(conv, 'c1'));
    expect((await service.list('mine')).checkpoints.map((c) => c.cellId)).toEqual(['c0', 'c1']);
    expect(existsSync(lock)).toBe(false);
  });

  it('two processes checkpointing one folder at once, each collecting the store every cell, leave every checkpoint whole', async () => {
    const { dataDir, workspace, service, conv } = checkpointing('both', SETTINGS);
    // Its failure (a checkpoint naming an object the other's gc pruned) is kept for the assertion below.
    const theirs = other.checkpoints(dataDir, workspace, 4).then(
      () => null,
      (err: unknown) => err,
    );
    for (let i = 0; i < 4; i++) {
      const skipped = await service.before(conv, `m${i}`);
      writeFileSync(path.join(workspace, `mine-${i}.txt`), `written by the test, cell ${i}\n`.repeat(40 + i));
      await service.after(conv, `m${i}`, skipped);
    }
    expect(await theirs).toBeNull();
    expect(await missingObjects(dataDir)).toEqual([]);
    // A rewind of ours reads what the other process's collections left: the files of before m3.
    const outcome = await service.restore(conv, 'm3', true);
    expect(outcome.status).toBe('restored');
    expect(existsSync(path.join(workspace, 'mine-3.txt'))).toBe(false);
    expect(readFileSync(path.join(workspace, 'mine-2.txt'), 'utf8')).toBe('written by the test, cell 2\n'.repeat(42));
  });
});

describe('scheduled tasks, shared with another process', () => {
  const task = (id: string, workspace: string): Schedule => manualTask({ id, workspace, prompt: 'say hello' });

  it('a change to the list waits for the other process’s, or fails naming it, and loses nothing', async () => {
    const { dataDir, workspace } = folders('schedules');
    const store = new ScheduleStore(dataDir, 300);
    await store.add(task('first-task', workspace));
    const lock = path.join(dataDir, 'schedules.json.lock');
    await other.hold(lock);
    const err: unknown = await store.add(task('second-task', workspace)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataFolderBusy);
    expect((err as Error).message).toContain(
      `the list of scheduled tasks (${path.join(dataDir, 'schedules.json')}) is in use by another Open Interpreter process (pid ${other.pid}`,
    );
    expect((await store.list()).map((s) => s.id)).toEqual(['first-task']);
    const patient = new ScheduleStore(dataDir, 120_000).add(task('second-task', workspace));
    await other.release(lock);
    await patient;
    expect((await store.list()).map((s) => s.id)).toEqual(['first-task', 'second-task']);
  });

  it('only one process runs the tasks; another takes over when the owner is killed', async () => {
    const { dataDir } = folders('service');
    const lock = path.join(dataDir, 'schedule-service.lock');
    const owner = otherProcess();
    await owner.hold(lock);
    const logs: string[] = [];
    const service = await startScheduleService({
      dataDir,
      command: { program: process.execPath, args: ['-e', ''], env: {} },
      ownerRetryMs: 50,
      log: (line) => void logs.push(line),
    });
    try {
      expect(service.runsElsewhere?.pid).toBe(owner.pid);
      expect(logs).toEqual([
        `they run in another Open Interpreter process of this data folder (pid ${owner.pid}); this one takes over when it quits`,
      ]);
      // Not running them: no webhook of its own (its record would replace the owner's).
      expect(service.webhook).toBeNull();
      expect(existsSync(path.join(dataDir, 'schedule-webhook.json'))).toBe(false);
      await owner.kill();
      await expect.poll(() => service.runsElsewhere, { timeout: 60_000 }).toBeNull();
      expect(service.webhook?.port).toBeGreaterThan(0);
      expect((JSON.parse(readFileSync(lock, 'utf8')) as LockHolder).pid).toBe(process.pid);
    } finally {
      await service.close();
    }
    expect(existsSync(lock)).toBe(false);
  });
});
