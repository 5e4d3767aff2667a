// Output cap benchmark: what the app does with each chunk of a run's text past the UI's cap (spill
// to the file, keep the tail for the head-and-tail view), against its anchor in the same run: the
// same chunks written straight to a file through a write stream with the same buffer, which the cap
// must do anyway. Run: npm run bench -- output   (writes bench/results/output.json)
//
// 200 MB of 55-character lines (what `yes` prints) in chunks of 4 KB and of 64 KB, the default cap.
// Each side runs RUNS times, alternating; medians of CPU time. Target: the cap within 1.5× the anchor.

import { createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileSync } from 'node:fs';
import { defaultSettings } from '../src-preload/contract/settings';
import { Outputs } from '../src-main/core/exec';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TOTAL_BYTES = 200 * 1024 * 1024;
const RUNS = 6;
/** Files in memory where there is a tmpfs: the disk's writeback would measure the disk, not the code. */
const SCRATCH = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
const LINE = 'the quick brown fox jumps over the lazy dog 0123456789\n';
const TARGET = 1.5;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** Chunks of about `size` bytes, fresh strings each (as a pty's reads are), cycling through a few. */
function chunks(size: number): string[] {
  const base = LINE.repeat(Math.ceil(size / LINE.length) + 1);
  return Array.from({ length: 16 }, (_, i) => base.slice(i, i + size));
}

/** Feeds TOTAL_BYTES of chunks to `take`, pausing while it reports backpressure, like the pty reader. */
async function feed(pieces: string[], take: (text: string) => void, paused: () => Promise<void> | null): Promise<void> {
  let sent = 0;
  for (let i = 0; sent < TOTAL_BYTES; i++) {
    const text = pieces[i % pieces.length] as string;
    take(text);
    sent += text.length;
    const wait = paused();
    if (wait) await wait;
  }
}

/** CPU time (ms, this process: its threads writing the file too) that `work` takes; steadier than wall time on a loaded machine. */
async function cpuMs(work: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** A pause gate: `pause(true)` holds the feeder until `pause(false)`. */
function gate(): { pause: (on: boolean) => void; paused: () => Promise<void> | null } {
  let waiting: Promise<void> | null = null;
  let release: (() => void) | null = null;
  return {
    pause(on) {
      if (on && !waiting) waiting = new Promise((r) => (release = r));
      if (!on && waiting) {
        const r = release;
        waiting = release = null;
        r?.();
      }
    },
    paused: () => waiting,
  };
}

async function viaCap(dir: string, pieces: string[]): Promise<number> {
  const g = gate();
  const spillPath = join(dir, '.oi', 'outputs', 'bench.log');
  const cap = new Outputs.OutputCap({ capBytes: defaultSettings.exec.outputCapBytes, spillPath, spillRoot: dir, onBackpressure: g.pause });
  return cpuMs(async () => {
    await feed(pieces, (text) => cap.push(text, 'stdout'), g.paused);
    await cap.finish();
    // What the end of the run reads of it: the kept text and the tail.
    if (!cap.text || cap.tailPieces().length === 0) throw new Error('the cap kept no head or no tail');
  });
}

async function viaFile(dir: string, pieces: string[]): Promise<number> {
  const g = gate();
  const out = createWriteStream(join(dir, 'plain.log'), { highWaterMark: 1024 * 1024 });
  out.on('drain', () => g.pause(false));
  return cpuMs(async () => {
    await feed(
      pieces,
      (text) => {
        if (!out.write(text, 'utf8')) g.pause(true);
      },
      g.paused,
    );
    await new Promise<void>((r) => out.end(() => r()));
  });
}

async function main(): Promise<void> {
  const results: Record<string, { capCpuMs: number; fileCpuMs: number; ratio: number; capUsPerChunk: number; target: number }> = {};
  for (const size of [4096, 65536]) {
    const pieces = chunks(size);
    const cap: number[] = [];
    const file: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const dir = await mkdtemp(join(SCRATCH, 'oi-bench-output-'));
      try {
        // Each side first in turn: the one after pays for the other's garbage and dirty pages otherwise.
        if (run % 2 === 0) cap.push(await viaCap(dir, pieces));
        file.push(await viaFile(dir, pieces));
        if (run % 2 === 1) cap.push(await viaCap(dir, pieces));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
    const capMs = median(cap);
    const fileMs = median(file);
    const name = `chunks${size / 1024}KB`;
    results[name] = {
      capCpuMs: capMs,
      fileCpuMs: fileMs,
      ratio: capMs / fileMs,
      capUsPerChunk: (capMs * 1000) / (TOTAL_BYTES / size),
      target: TARGET,
    };
    console.log(
      `${name.padEnd(12)} CPU: cap ${capMs.toFixed(0)} ms (${results[name].capUsPerChunk.toFixed(1)} µs a chunk)  file ${fileMs.toFixed(0)} ms  ratio ${(capMs / fileMs).toFixed(2)} (target ≤ ${TARGET})`,
    );
  }
  const report = {
    machine: `${process.platform} ${process.arch}, node ${process.versions.node}`,
    totalMb: TOTAL_BYTES / 2 ** 20,
    ...results,
  };
  writeFileSync(join(ROOT, 'bench', 'results', 'output.json'), `${JSON.stringify(report, null, 2)}\n`);
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
