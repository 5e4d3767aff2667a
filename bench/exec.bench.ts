// Execution engine benchmark: our Python session against a Jupyter kernel driven by jupyter_client,
// side by side on this machine. Run: npx tsx bench/exec.bench.ts   (writes bench/results/exec.json)
//
// Measures: warm round trip of print(1); cold start (new session → first result, and → first magic,
// when IPython is ready) vs kernel start (start_kernel → ready); 10 MB of line-by-line stdout;
// main-process memory while a cell prints 200 MB. Our runs and the kernel's alternate (see below).
// OI_BENCH_WARM_ONLY=1 measures only the warm round trip (a minute instead of many) and writes no
// result file.

import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { defaultSettings } from '../src-preload/contract/settings';
import { createExecService } from '../src-main/core/exec';
import type { RunRequest } from '../src-main/core/exec';
import { kernelAvailable, startKernelDriver, type KernelDriver, type KernelResult } from './jupyter-kernel-driver';
import { fmt, summarize } from './stats';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PYTHON = process.env.OI_BENCH_PYTHON ?? '/usr/bin/python3';
const WARM_RUNS = 200;
/** Warm runs alternate between the two sides in this many rounds. */
const WARM_ROUNDS = 4;
const COLD_RUNS = 5;
const WARM_ONLY = process.env.OI_BENCH_WARM_ONLY === '1';
const TEN_MB_CODE = 'for i in range(200_000):\n    print("%06d" % i, "x" * 42)';
const BIG_CODE = 'line = "y" * 99\nfor i in range(2_000_000):\n    print(line)';

interface OurResult {
  cold: number[];
  coldIPython: number[];
  ipython: boolean;
  warm: number[];
  /** CPU time of both processes (this one, the app's main, and the runner) over the warm runs; null where /proc is missing. */
  warmCpuMs: number | null;
  tenMb: number;
  tenChars: number;
  big: { ms: number; status: string; rssGrowthMb: number; heapGrowthMb: number };
}

/** Both sides, alternating: each cold start of ours beside one of the kernel's, warm runs in rounds. */
async function measure(
  workspace: string,
  tmpRoot: string,
  kernelDriver: KernelDriver | null,
): Promise<{ us: OurResult; kernel: KernelResult | null }> {
  const settings = { ...defaultSettings.exec, pythonPath: PYTHON, timeoutMs: 600_000 };
  let cells = 0;
  const request = (code: string, extra: Partial<RunRequest> = {}): RunRequest => ({
    conversationId: 'bench',
    // As the app's runs do (agent/run-cell.ts: the cell's id); without one the engine makes one up.
    runId: `cell-${++cells}`,
    workspace,
    language: 'python',
    code,
    settings,
    onTerminal: () => undefined,
    ...extra,
  });
  const service = createExecService({ resourcesDir: join(ROOT, 'resources'), tmpRoot });
  const kernel: KernelResult = { cold: [], warm: [], warmCpuMs: 0, tenMb: NaN, tenMbChars: 0 };
  try {
    // Cold: from no session to the first result, each time in a fresh session. IPython loads in the
    // background meanwhile (resources/runners/python/oi_ipython.py); print(1) does not wait for it.
    // Cold to IPython: from no session to the result of a cell only IPython runs (a magic).
    const cold: number[] = [];
    const coldIPython: number[] = [];
    if (WARM_ONLY && kernelDriver) await kernelDriver.send('cold');
    for (let i = 0; i < (WARM_ONLY ? 0 : COLD_RUNS); i++) {
      for (const [code, into] of [
        ['print(1)', cold],
        ['%env OI_BENCH=1', coldIPython],
      ] as const) {
        await service.restart('bench', 'python');
        const t = performance.now();
        const r = await service.run(request(code));
        if (r.status !== 'done') throw new Error(`cold run of ${code}: ${r.forModel}`);
        into.push(performance.now() - t);
      }
      if (kernelDriver) kernel.cold.push(await kernelDriver.send<number>('cold'));
    }
    // The warm runs go through IPython's shell, as every cell does once it is loaded.
    const shell = await service.run(request('get_ipython().__class__.__name__'));
    const ipython = shell.forModel === "'OiShell'";
    if (!ipython) console.log(`note: ${PYTHON} runs without IPython here (${shell.forModel.slice(0, 200)})`);
    for (let i = 0; i < 20; i++) await service.run(request('print(1)'));
    if (kernelDriver) await kernelDriver.send('warm 20');
    const runnerPid = Number((await service.run(request('import os\nos.getpid()'))).forModel);
    let warmCpuMs: number | null = 0;
    const warm: number[] = [];
    for (let round = 0; round < WARM_ROUNDS; round++) {
      const cpuBefore = ourCpuMs(runnerPid);
      for (let i = 0; i < WARM_RUNS / WARM_ROUNDS; i++) {
        const t = performance.now();
        await service.run(request('print(1)'));
        warm.push(performance.now() - t);
      }
      const cpuAfter = ourCpuMs(runnerPid);
      warmCpuMs = warmCpuMs === null || cpuBefore === null || cpuAfter === null ? null : warmCpuMs + cpuAfter - cpuBefore;
      if (kernelDriver) {
        const batch = await kernelDriver.send<{ ms: number[]; cpuMs: number }>(`warm ${WARM_RUNS / WARM_ROUNDS}`);
        kernel.warm.push(...batch.ms);
        kernel.warmCpuMs += batch.cpuMs;
      }
    }
    if (WARM_ONLY) {
      const none = { ms: NaN, status: 'not run', rssGrowthMb: NaN, heapGrowthMb: NaN };
      return {
        us: { cold, coldIPython, ipython, warm, warmCpuMs, tenMb: NaN, tenChars: 0, big: none },
        kernel: kernelDriver ? kernel : null,
      };
    }
    let tenChars = 0;
    const t10 = performance.now();
    await service.run(
      request(TEN_MB_CODE, {
        settings: { ...settings, outputCapBytes: 64 * 1024 * 1024 },
        onTerminal: (text) => {
          tenChars += text.length;
        },
      }),
    );
    const tenMb = performance.now() - t10;
    if (kernelDriver) {
      const ten = await kernelDriver.send<{ ms: number; chars: number }>('ten');
      kernel.tenMb = ten.ms;
      kernel.tenMbChars = ten.chars;
    }

    // Memory: main's RSS and heap while a cell prints 200 MB, with the default cap. Collect first so
    // the baseline is not inflated by the 10 MB run's garbage.
    collectGarbage();
    const base = process.memoryUsage();
    let peakRss = base.rss;
    let peakHeap = base.heapUsed;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 10);
    const tBig = performance.now();
    const big = await service.run(request(BIG_CODE, { settings: { ...settings, outputCapBytes: defaultSettings.exec.outputCapBytes } }));
    const bigMs = performance.now() - tBig;
    clearInterval(sampler);
    const us: OurResult = {
      cold,
      coldIPython,
      ipython,
      warm,
      warmCpuMs,
      tenMb,
      tenChars,
      big: {
        ms: bigMs,
        status: big.status,
        rssGrowthMb: (peakRss - base.rss) / 2 ** 20,
        heapGrowthMb: (peakHeap - base.heapUsed) / 2 ** 20,
      },
    };
    return { us, kernel: kernelDriver ? kernel : null };
  } finally {
    await service.dispose();
  }
}

/** CPU time so far of this process and of the runner (Linux /proc); null elsewhere. */
function ourCpuMs(runnerPid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${runnerPid}/stat`, 'utf8').split(')').pop()!.trim().split(/\s+/);
    const { user, system } = process.cpuUsage();
    // Clock ticks are 100 a second on Linux (USER_HZ); fields 14 and 15 of stat, 12 and 13 after the name.
    return (user + system) / 1000 + (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  gc?.();
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'oi-bench-'));
  const workspace = join(dir, 'workspace');
  await mkdir(workspace);
  try {
    console.log(`exec bench: python ${PYTHON}, node ${process.version}, ${process.platform}/${process.arch}`);
    const kernelVersion = await kernelAvailable(PYTHON);
    let driver: KernelDriver | null = null;
    if (!kernelVersion) {
      console.log(
        `Jupyter comparison skipped: ${PYTHON} has no jupyter_client/ipykernel (Debian: apt install python3-jupyter-client python3-ipykernel).`,
      );
    } else {
      console.log(`Jupyter: jupyter_client/ipykernel ${kernelVersion}`);
      driver = await startKernelDriver(dir, PYTHON, TEN_MB_CODE);
    }
    // `finally` waits for the promise its callback returns: the kernel is closed before the report.
    // oxlint-disable-next-line typescript/no-misused-promises
    const { us, kernel } = await measure(workspace, dir, driver).finally(() => driver?.close());
    const warm = summarize(us.warm);
    const cold = summarize(us.cold);
    const coldIPython = summarize(us.coldIPython);
    const kWarm = kernel ? summarize(kernel.warm) : null;
    const kCold = kernel ? summarize(kernel.cold) : null;
    const rows: Array<[string, string, string, string, string]> = [
      ['measure', 'ours', 'jupyter kernel', 'ratio (ours/kernel)', 'target'],
      [
        `warm print(1) round trip${us.ipython ? ' through IPython' : ''} (median)`,
        fmt(warm.median),
        kWarm ? fmt(kWarm.median) : '—',
        kWarm ? (warm.median / kWarm.median).toFixed(2) : '—',
        '≤ 0.2',
      ],
      ['warm print(1) round trip (p95)', fmt(warm.p95), kWarm ? fmt(kWarm.p95) : '—', kWarm ? (warm.p95 / kWarm.p95).toFixed(2) : '—', ''],
      [
        'CPU per warm round trip, both processes',
        us.warmCpuMs === null ? '—' : fmt(us.warmCpuMs / us.warm.length),
        kernel ? fmt(kernel.warmCpuMs / kernel.warm.length) : '—',
        kernel && us.warmCpuMs !== null ? (us.warmCpuMs / us.warm.length / (kernel.warmCpuMs / kernel.warm.length)).toFixed(2) : '—',
        '',
      ],
      [
        'cold start → first result (median)',
        fmt(cold.median),
        kCold ? fmt(kCold.median) : '—',
        kCold ? (cold.median / kCold.median).toFixed(2) : '—',
        us.ipython ? '≤ 0.3 (with IPython)' : '≤ 0.1',
      ],
      [
        'cold start → first magic (%env), median',
        fmt(coldIPython.median),
        kCold ? fmt(kCold.median) : '—',
        kCold ? (coldIPython.median / kCold.median).toFixed(2) : '—',
        us.ipython ? '≤ 0.3 (IPython ready)' : '',
      ],
      [
        '10 MB line-by-line stdout',
        fmt(us.tenMb),
        kernel ? fmt(kernel.tenMb) : '—',
        kernel ? (us.tenMb / kernel.tenMb).toFixed(2) : '—',
        '≤ 0.67',
      ],
      ['main RSS growth, cell printing 200 MB', `${us.big.rssGrowthMb.toFixed(0)} MB`, '', '', '< 100 MB'],
      ['main heap growth, cell printing 200 MB', `${us.big.heapGrowthMb.toFixed(0)} MB`, '', '', ''],
      ['time to print 200 MB', fmt(us.big.ms), '', '', ''],
    ];
    if (WARM_ONLY) rows.splice(4);
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const [i, row] of rows.entries()) {
      console.log(row.map((cell, j) => cell.padEnd(widths[j]!)).join('  '));
      if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    }
    const result = {
      date: new Date().toISOString(),
      machine: { platform: process.platform, arch: process.arch, node: process.version, python: PYTHON },
      jupyter: kernelVersion,
      ours: {
        ipython: us.ipython,
        warmMs: warm,
        warmCpuMsPerRun: us.warmCpuMs === null ? null : us.warmCpuMs / us.warm.length,
        coldMs: cold,
        coldToIPythonMs: coldIPython,
        tenMbMs: us.tenMb,
        tenMbChars: us.tenChars,
        print200Mb: us.big,
      },
      kernel: kernel
        ? {
            warmMs: kWarm,
            warmCpuMsPerRun: kernel.warmCpuMs / kernel.warm.length,
            coldMs: kCold,
            tenMbMs: kernel.tenMb,
            tenMbChars: kernel.tenMbChars,
          }
        : null,
      ratios: kernel
        ? {
            warm: warm.median / (kWarm?.median ?? NaN),
            cold: cold.median / (kCold?.median ?? NaN),
            coldToIPython: coldIPython.median / (kCold?.median ?? NaN),
            tenMb: us.tenMb / kernel.tenMb,
          }
        : null,
    };
    if (WARM_ONLY) return;
    await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
    await writeFile(join(ROOT, 'bench', 'results', 'exec.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log('written bench/results/exec.json');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
