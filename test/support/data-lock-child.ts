import { createInterface } from 'node:readline';
import { holdLock, type HeldLock } from '../../src-main/core/fs/data-folder-lock';
import { CheckpointService } from '../../src-main/core/checkpoints/checkpoint-service';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

// Another process of the same data folder, for test/integration/data-folder-lock.test.ts: it takes
// and gives back locks as told on stdin (`hold <file>`, `release <file>`; answers `held <file>` and
// `released <file>`; `error <why>` when it failed), or (`checkpoints <data folder> <workspace> <n>`) records n cells' checkpoints of
// a workspace, with a store limit so small that every cell collects the store, then says `done`.

const locks = new Map<string, HeldLock>();
const say = (line: string) => process.stdout.write(`${line}\n`);

async function checkpoints(dataDir: string, workspace: string, count: number): Promise<void> {
  const service = new CheckpointService({
    dataDir,
    journal: false,
    settings: () => ({
      checkpointMaxFileMb: 50,
      checkpointIgnoredMaxKb: 1024,
      checkpointBudgetMb: 1024,
      checkpointKeepDays: 30,
      checkpointStoreMaxMb: 0,
    }),
  });
  for (let i = 0; i < count; i++) {
    const conv = { id: `child-${process.pid}`, workspace };
    const skipped = await service.before(conv, `c${i}`);
    writeFileSync(path.join(workspace, `child-${i}.txt`), `written by the child, cell ${i}\n`.repeat(50 + i));
    await service.after(conv, `c${i}`, skipped);
  }
}

async function obey(command: string, args: string[]): Promise<void> {
  const file = args.join(' ');
  if (command === 'hold') {
    locks.set(file, await holdLock(file, { purpose: 'the test’s other process', waitMs: 60_000 }));
    say(`held ${file}`);
  } else if (command === 'release') {
    await locks.get(file)?.release();
    locks.delete(file);
    say(`released ${file}`);
  } else if (command === 'checkpoints') {
    const [dataDir = '', workspace = '', n = '0'] = args;
    await checkpoints(dataDir, workspace, Number(n));
    say('done');
  }
}

for await (const line of createInterface({ input: process.stdin })) {
  const [command = '', ...args] = line.split(' ');
  // A failure is an answer too, so the test reads why rather than waiting.
  await obey(command, args).catch((err: unknown) => say(`error ${err instanceof Error ? err.message : String(err)}`));
}
