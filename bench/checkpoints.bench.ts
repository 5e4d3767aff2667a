// Checkpoints benchmark, side by side in one run with its anchor, `git add -A && git commit` on a copy
// of the same tree (docs/checkpoints.md). Run: npm run bench -- checkpoints (writes bench/results/checkpoints.json)
//
// The workspace: 10,000 files of 4 KB (40 MB) in 100 folders. Measured, as medians:
// - a checkpoint with no change since the last (target ≤ 0.5× git's time),
// - a checkpoint after 10 files changed (target ≤ 1×),
// - the first checkpoint of the workspace (target ≤ 1× git's first add + commit),
// - store growth over 100 cells that each rewrite one 1 MB file (target ≤ 1.2× the bytes changed),
// - a 40 MB file that 100 cells each change 4 KB of, in place, at a random offset (issue 26, item 4):
//   store growth (target ≤ 2× the bytes changed) and the checkpoint after such a cell against
//   `git add -A && git commit` of the same edit on a copy (target ≤ 1×, medians, interleaved).

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, cpSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { loadavg } from 'node:os';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultSettings } from '../src-preload/contract/index';
import { CheckpointService } from '../src-main/core/checkpoints/checkpoint-service';
import { storeBytes } from '../src-main/core/checkpoints/store-size';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = 7;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

function makeTree(dir: string): void {
  for (let d = 0; d < 100; d++) {
    mkdirSync(join(dir, `d${d}`), { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(join(dir, `d${d}`, `f${f}.txt`), randomBytes(2048).toString('hex'));
  }
}

const gitEnv = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'b',
  GIT_AUTHOR_EMAIL: 'b@b',
  GIT_COMMITTER_NAME: 'b',
  GIT_COMMITTER_EMAIL: 'b@b',
};
const git = (cwd: string, script: string) => execFileSync('sh', ['-c', script], { cwd, env: gitEnv, stdio: 'ignore' });
const gitCommit = (cwd: string) => git(cwd, 'git add -A && git commit -q --allow-empty -m x');

async function timed(fn: () => unknown): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function main(): Promise<void> {
  const top = mkdtempSync(join(tmpdir(), 'oi-bench-checkpoints-'));
  try {
    const ours = join(top, 'ours');
    const theirs = join(top, 'git');
    makeTree(ours);
    cpSync(ours, theirs, { recursive: true });
    const service = new CheckpointService({ dataDir: join(top, 'data'), settings: () => defaultSettings });
    const conv = { id: 'bench', workspace: ours };
    let cell = 0;
    const checkpoint = () => service.before(conv, `c${cell++}`);

    const firstOurs = await timed(checkpoint);
    const firstGit = await timed(() => git(theirs, 'git init -q && git add -A && git commit -q -m first'));

    const noChangeOurs: number[] = [];
    const noChangeGit: number[] = [];
    const tenOurs: number[] = [];
    const tenGit: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      // Interleaved, so a busy moment of the machine hits both sides alike.
      noChangeOurs.push(await timed(checkpoint));
      noChangeGit.push(await timed(() => gitCommit(theirs)));
      for (const dir of [ours, theirs])
        for (let i = 0; i < 10; i++) writeFileSync(join(dir, `d${i * 7}`, `f${r}.txt`), randomBytes(2048).toString('hex'));
      tenOurs.push(await timed(checkpoint));
      tenGit.push(await timed(() => gitCommit(theirs)));
    }

    // Growth: 100 cells, each rewriting one 1 MB file (random, so nothing compresses).
    const growthDir = join(top, 'growth');
    await mkdir(growthDir);
    const growthService = new CheckpointService({ dataDir: join(top, 'growth-data'), settings: () => defaultSettings });
    const gconv = { id: 'growth', workspace: growthDir };
    writeFileSync(join(growthDir, 'data.bin'), randomBytes(1024 * 1024));
    await growthService.before(gconv, 'g0');
    const storeDir = join(top, 'growth-data', 'checkpoints', 'stores');
    const startBytes = await storeBytes(storeDir);
    for (let i = 1; i <= 100; i++) {
      await growthService.before(gconv, `g${i}`);
      writeFileSync(join(growthDir, 'data.bin'), randomBytes(1024 * 1024));
      await growthService.after(gconv, `g${i}`, []);
    }
    const grown = (await storeBytes(storeDir)) - startBytes;
    const changed = 100 * 1024 * 1024;

    const big = await bigFileRows(top);

    const result = {
      machine: `${process.platform} ${process.arch}, node ${process.versions.node}`,
      loadAverage: loadavg().map((l) => Number(l.toFixed(1))),
      tree: '10,000 files, 40 MB, 100 folders',
      firstMs: { ours: firstOurs, git: firstGit, ratio: firstOurs / firstGit, target: 1 },
      noChangeMs: { ours: median(noChangeOurs), git: median(noChangeGit), ratio: median(noChangeOurs) / median(noChangeGit), target: 0.5 },
      tenChangedMs: { ours: median(tenOurs), git: median(tenGit), ratio: median(tenOurs) / median(tenGit), target: 1 },
      growth: { bytesStored: grown, bytesChanged: changed, ratio: grown / changed, target: 1.2 },
      bigFile: big,
    };
    console.table({
      'first checkpoint': {
        ours: result.firstMs.ours.toFixed(0),
        git: result.firstMs.git.toFixed(0),
        ratio: result.firstMs.ratio.toFixed(2),
        target: '≤ 1',
      },
      'no change': {
        ours: result.noChangeMs.ours.toFixed(0),
        git: result.noChangeMs.git.toFixed(0),
        ratio: result.noChangeMs.ratio.toFixed(2),
        target: '≤ 0.5',
      },
      '10 files changed': {
        ours: result.tenChangedMs.ours.toFixed(0),
        git: result.tenChangedMs.git.toFixed(0),
        ratio: result.tenChangedMs.ratio.toFixed(2),
        target: '≤ 1',
      },
      'growth (bytes)': { ours: grown, git: changed, ratio: result.growth.ratio.toFixed(2), target: '≤ 1.2' },
      '40 MB file, 4 KB edit: checkpoint (ms)': {
        ours: big.cellMs.ours.toFixed(0),
        git: big.cellMs.git.toFixed(0),
        ratio: big.cellMs.ratio.toFixed(2),
        target: '≤ 1',
      },
      '40 MB file, 100 × 4 KB: growth (bytes)': {
        ours: big.growth.bytesStored,
        git: big.growth.bytesChanged,
        ratio: big.growth.ratio.toFixed(2),
        target: '≤ 2',
      },
    });
    await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
    await writeFile(join(ROOT, 'bench', 'results', 'checkpoints.json'), `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    rmSync(top, { recursive: true, force: true });
  }
}

/** Writes `bytes` over `file` at `offset`, in place, as a database writes a page. */
function writeInPlace(file: string, offset: number, bytes: Buffer): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, offset);
  } finally {
    closeSync(fd);
  }
}

/**
 * A 40 MB file (random, so nothing compresses) in a folder of its own, and a copy under git; 100 cells
 * each write 4 KB at a random offset, the same on both sides. Our side is the checkpoint after the cell
 * (the one before it is the previous one's, unchanged); git's is `git add -A && git commit`, timed on
 * every 10th cell (each costs a whole compressed copy of the file; git's copy gets every edit too),
 * interleaved with ours.
 */
async function bigFileRows(top: string) {
  const SIZE = 40 * 1024 * 1024;
  const EDIT = 4096;
  const ours = join(top, 'big-ours');
  const theirs = join(top, 'big-git');
  mkdirSync(ours);
  writeFileSync(join(ours, 'big.bin'), randomBytes(SIZE));
  cpSync(ours, theirs, { recursive: true });
  git(theirs, 'git init -q && git add -A && git commit -q -m first');
  const service = new CheckpointService({ dataDir: join(top, 'big-data'), settings: () => defaultSettings });
  const conv = { id: 'big', workspace: ours };
  await service.before(conv, 'b0');
  const storeDir = join(top, 'big-data', 'checkpoints', 'stores');
  const startBytes = await storeBytes(storeDir);
  const oursMs: number[] = [];
  const gitMs: number[] = [];
  for (let i = 1; i <= 100; i++) {
    await service.before(conv, `b${i}`);
    const offset = Math.floor(Math.random() * (SIZE - EDIT));
    const bytes = randomBytes(EDIT);
    writeInPlace(join(ours, 'big.bin'), offset, bytes);
    const t = await timed(() => service.after(conv, `b${i}`, []));
    writeInPlace(join(theirs, 'big.bin'), offset, bytes);
    if (i % 10 !== 0) continue;
    oursMs.push(t);
    gitMs.push(await timed(() => gitCommit(theirs)));
  }
  const grown = (await storeBytes(storeDir)) - startBytes;
  return {
    file: '40 MB, 100 cells × 4 KB in place at random offsets',
    cellMs: { ours: median(oursMs), git: median(gitMs), ratio: median(oursMs) / median(gitMs), target: 1 },
    growth: { bytesStored: grown, bytesChanged: 100 * EDIT, ratio: grown / (100 * EDIT), target: 2 },
  };
}

await main();
