// The sandbox's cost: the same Python session with and without bubblewrap, side by side in one run on
// this machine. Run: npm run bench -- sandbox   (writes bench/results/sandbox.json)
//
// Measures: warm round trip of print(1) and 10 MB of line-by-line stdout, each in a sandboxed and an
// unsandboxed conversation of one engine. The two sides alternate (warm runs in rounds, the 10 MB cell
// one after the other, several times) so a change in the machine's load colours both alike. Targets
// (issue 24): sandboxed ≤ 1.3× unsandboxed for both. The load average is recorded beside the ratios.

import { loadavg } from 'node:os';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultSettings, type SandboxSettings } from '../src-preload/contract/settings';
import { createExecService, Sandbox } from '../src-main/core/exec';
import type { RunRequest } from '../src-main/core/exec';
import { fmt, summarize } from './stats';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PYTHON = process.env.OI_BENCH_PYTHON ?? '/usr/bin/python3';
const WARM_RUNS = 200;
const WARM_ROUNDS = 4;
const TEN_MB_RUNS = 3;
const TEN_MB_CODE = 'for i in range(200_000):\n    print("%06d" % i, "x" * 42)';
const SIDES = {
  unsandboxed: { enabled: false, chosen: true, allowNetwork: false, extraPaths: [], allowedHosts: [] },
  sandboxed: { enabled: true, chosen: true, allowNetwork: false, extraPaths: [], allowedHosts: [] },
} satisfies Record<string, SandboxSettings>;
type Side = keyof typeof SIDES;

async function main(): Promise<void> {
  const support = await Sandbox.sandboxSupport();
  if (!support.available) {
    console.log(`sandbox bench skipped: ${support.reason}`);
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'oi-bench-sandbox-'));
  const workspace = join(dir, 'workspace');
  await mkdir(workspace);
  const settings = { ...defaultSettings.exec, pythonPath: PYTHON, timeoutMs: 600_000, outputCapBytes: 64 * 1024 * 1024 };
  const service = createExecService({ resourcesDir: join(ROOT, 'resources'), tmpRoot: dir });
  let cells = 0;
  const run = async (side: Side, code: string, onTerminal: (text: string) => void = () => undefined): Promise<number> => {
    const request: RunRequest = {
      conversationId: `bench-${side}`,
      runId: `cell-${++cells}`,
      workspace,
      language: 'python',
      code,
      settings,
      sandbox: SIDES[side],
      onTerminal,
    };
    const t = performance.now();
    const result = await service.run(request);
    const ms = performance.now() - t;
    if (result.status !== 'done') throw new Error(`${side} run failed: ${result.forModel}`);
    if (side === 'sandboxed' && !result.limits?.sandbox) throw new Error('the sandboxed run did not report a sandbox');
    return ms;
  };
  const loadBefore = loadavg();
  const warm: Record<Side, number[]> = { unsandboxed: [], sandboxed: [] };
  const tenMb: Record<Side, number[]> = { unsandboxed: [], sandboxed: [] };
  try {
    console.log(
      `sandbox bench: python ${PYTHON}, ${support.tool}, node ${process.version}, load ${loadBefore.map((l) => l.toFixed(2)).join(' ')}`,
    );
    // Start both sessions and let IPython load before anything is timed.
    for (const side of Object.keys(SIDES) as Side[]) {
      await run(side, 'get_ipython().__class__.__name__');
      for (let i = 0; i < 20; i++) await run(side, 'print(1)');
    }
    for (let round = 0; round < WARM_ROUNDS; round++) {
      for (const side of round % 2 === 0 ? (['unsandboxed', 'sandboxed'] as const) : (['sandboxed', 'unsandboxed'] as const)) {
        for (let i = 0; i < WARM_RUNS / WARM_ROUNDS; i++) warm[side].push(await run(side, 'print(1)'));
      }
    }
    for (let i = 0; i < TEN_MB_RUNS; i++) {
      for (const side of i % 2 === 0 ? (['unsandboxed', 'sandboxed'] as const) : (['sandboxed', 'unsandboxed'] as const)) {
        let chars = 0;
        tenMb[side].push(await run(side, TEN_MB_CODE, (text) => (chars += text.length)));
        if (chars < 10_000_000) throw new Error(`${side}: only ${chars} characters of the 10 MB reached the terminal`);
      }
    }
  } finally {
    await service.dispose();
    await rm(dir, { recursive: true, force: true });
  }
  const loadAfter = loadavg();
  const summary = {
    warm: { unsandboxed: summarize(warm.unsandboxed), sandboxed: summarize(warm.sandboxed) },
    tenMb: { unsandboxed: summarize(tenMb.unsandboxed), sandboxed: summarize(tenMb.sandboxed) },
  };
  const ratios = {
    warm: summary.warm.sandboxed.median / summary.warm.unsandboxed.median,
    warmP95: summary.warm.sandboxed.p95 / summary.warm.unsandboxed.p95,
    tenMb: summary.tenMb.sandboxed.median / summary.tenMb.unsandboxed.median,
  };
  const rows: string[][] = [
    ['measure', 'unsandboxed', 'sandboxed', 'ratio', 'target'],
    [
      'warm print(1) round trip (median)',
      fmt(summary.warm.unsandboxed.median),
      fmt(summary.warm.sandboxed.median),
      ratios.warm.toFixed(2),
      '≤ 1.3',
    ],
    ['warm print(1) round trip (p95)', fmt(summary.warm.unsandboxed.p95), fmt(summary.warm.sandboxed.p95), ratios.warmP95.toFixed(2), ''],
    [
      '10 MB line-by-line stdout (median)',
      fmt(summary.tenMb.unsandboxed.median),
      fmt(summary.tenMb.sandboxed.median),
      ratios.tenMb.toFixed(2),
      '≤ 1.3',
    ],
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const [i, row] of rows.entries()) {
    console.log(row.map((cell, j) => cell.padEnd(widths[j]!)).join('  '));
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
  console.log(`load average after: ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`);
  const result = {
    date: new Date().toISOString(),
    machine: { platform: process.platform, arch: process.arch, node: process.version, python: PYTHON, tool: support.tool },
    load: { before: loadBefore, after: loadAfter },
    ...summary,
    ratios,
  };
  await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
  await writeFile(join(ROOT, 'bench', 'results', 'sandbox.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log('written bench/results/sandbox.json');
}

await main();
