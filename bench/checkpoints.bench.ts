// Checkpoints benchmark, side by side in one run with its anchor, `git add -A && git commit` on a copy
// of the same tree (docs/checkpoints.md). Run: npm run bench -- checkpoints (writes bench/results/checkpoints.json)
//
// The workspace: 10,000 files of 4 KB (40 MB) in 100 folders. Measured, as medians:
// - a checkpoint with no change since the last (target ≤ 0.5× git's time),
// - a checkpoint after 10 files changed (target ≤ 1×),
// - the first checkpoint of the workspace (target ≤ 1× git's first add + commit),
// - store growth over 100 cells that each rewrite one 1 MB file (target ≤ 1.2× the bytes changed).

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

    const result = {
      machine: `${process.platform} ${process.arch}, node ${process.versions.node}`,
      tree: '10,000 files, 40 MB, 100 folders',
      firstMs: { ours: firstOurs, git: firstGit, ratio: firstOurs / firstGit, target: 1 },
      noChangeMs: { ours: median(noChangeOurs), git: median(noChangeGit), ratio: median(noChangeOurs) / median(noChangeGit), target: 0.5 },
      tenChangedMs: { ours: median(tenOurs), git: median(tenGit), ratio: median(tenOurs) / median(tenGit), target: 1 },
      growth: { bytesStored: grown, bytesChanged: changed, ratio: grown / changed, target: 1.2 },
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
    });
    await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
    await writeFile(join(ROOT, 'bench', 'results', 'checkpoints.json'), `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    rmSync(top, { recursive: true, force: true });
  }
}

await main();
