// The network proxy's cost (issue 24 item 6): a 50 MB download from a local server by a Python cell,
// sandboxed through the app's proxy (relay inside bubblewrap → Unix socket → proxy → server) against
// the same download by an unsandboxed cell straight to the server, side by side in one run.
// Run: npm run bench -- sandbox-network   (writes bench/results/sandbox-network.json). Target ≤ 1.2×.
//
// The two sides alternate so a change in the machine's load colours both alike; the download is read
// in 1 MiB chunks and thrown away, so what is measured is the transport, not Python's memory.

import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultSettings, type SandboxSettings } from '../src-preload/contract/settings';
import { createExecService, createSessionRouter, type RunRequest, Sandbox } from '../src-main/core/exec';
import { fmt, summarize } from './stats';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PYTHON = process.env.OI_BENCH_PYTHON ?? '/usr/bin/python3';
const BYTES = 50 * 1024 * 1024;
const RUNS = 6;
// 127.0.0.2: outside the sandbox's NO_PROXY, so the sandboxed side goes through the proxy.
const HOST = '127.0.0.2';
const SIDES = {
  unsandboxed: { enabled: false, chosen: true, allowNetwork: false, extraPaths: [], allowedHosts: [] },
  sandboxed: { enabled: true, chosen: true, allowNetwork: false, extraPaths: [], allowedHosts: [HOST] },
  // Diagnostic: the sandbox with the network allowed (no proxy), to tell the sandbox's cost from the proxy's.
  sandboxedOpen: { enabled: true, chosen: true, allowNetwork: true, extraPaths: [], allowedHosts: [] },
} satisfies Record<string, SandboxSettings>;
type Side = keyof typeof SIDES;

async function main(): Promise<void> {
  const support = await Sandbox.sandboxSupport();
  if (!support.available) {
    console.log(`sandbox-network bench skipped: ${support.reason}`);
    return;
  }
  const chunk = Buffer.alloc(1024 * 1024, 120);
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-length': BYTES });
    let sent = 0;
    const more = () => {
      while (sent < BYTES) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end();
    };
    more();
  });
  await new Promise<void>((r) => server.listen(0, HOST, r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const code = [
    'import time, urllib.request',
    'c = time.process_time()',
    `r = urllib.request.urlopen("http://${HOST}:${port}/", timeout=300)`,
    'n = 0',
    'while True:',
    '    b = r.read(1 << 20)',
    '    if not b: break',
    '    n += len(b)',
    'print(n)',
    // The cell's own CPU time for the download, which the load of others does not stretch.
    'print("cpu", time.process_time() - c)',
  ].join('\n');

  const dir = await mkdtemp(join(tmpdir(), 'oi-bench-net-'));
  const workspace = join(dir, 'workspace');
  await mkdir(workspace);
  const settings = { ...defaultSettings.exec, pythonPath: PYTHON, timeoutMs: 600_000 };
  // The app's policy lets listed hosts through (agent/network-questions.ts); the bench lists the server.
  const router = createSessionRouter({ network: () => async () => ({ allow: true, mayBeLocal: true }) });
  const service = createExecService({ resourcesDir: join(ROOT, 'resources'), tmpRoot: dir, router });
  let cells = 0;
  const run = async (side: Side): Promise<number> => {
    const request: RunRequest = {
      conversationId: `net-${side}`,
      runId: `cell-${++cells}`,
      workspace,
      language: 'python',
      code,
      settings,
      sandbox: SIDES[side],
    };
    const relayBefore = relayCpuMs(dir);
    const mainBefore = process.cpuUsage();
    const t = performance.now();
    const result = await service.run(request);
    const ms = performance.now() - t;
    const main = process.cpuUsage(mainBefore);
    if (result.status !== 'done' || !result.forModel.includes(String(BYTES)))
      throw new Error(`${side} download failed: ${result.forModel}`);
    const python = Number(/cpu ([\d.e-]+)/.exec(result.forModel)?.[1]) * 1000;
    cpu[side].push({ main: (main.user + main.system) / 1000, python, relay: relayCpuMs(dir) - relayBefore });
    return ms;
  };
  const cpu: Record<Side, Cpu[]> = { unsandboxed: [], sandboxed: [], sandboxedOpen: [] };
  const loadBefore = loadavg();
  const times: Record<Side, number[]> = { unsandboxed: [], sandboxed: [], sandboxedOpen: [] };
  const order: Side[][] = [
    ['unsandboxed', 'sandboxed', 'sandboxedOpen'],
    ['sandboxedOpen', 'sandboxed', 'unsandboxed'],
  ];
  try {
    console.log(
      `sandbox-network bench: 50 MB over HTTP, python ${PYTHON}, ${support.tool}, load ${loadBefore.map((l) => l.toFixed(2)).join(' ')}`,
    );
    // Start both sessions (and the sandbox's relay) before anything is timed.
    for (const side of Object.keys(SIDES) as Side[]) await run(side);
    for (const side of Object.keys(SIDES) as Side[]) cpu[side].length = 0;
    for (let i = 0; i < RUNS; i++) {
      for (const side of order[i % 2]!) {
        times[side].push(await run(side));
      }
    }
  } finally {
    await service.dispose();
    await new Promise((r) => server.close(r));
    await rm(dir, { recursive: true, force: true });
  }
  const loadAfter = loadavg();
  const summary = {
    unsandboxed: summarize(times.unsandboxed),
    sandboxed: summarize(times.sandboxed),
    sandboxedOpen: summarize(times.sandboxedOpen),
  };
  const ratio = summary.sandboxed.median / summary.unsandboxed.median;
  console.log(
    `50 MB download (median): unsandboxed, direct ${fmt(summary.unsandboxed.median)}; sandboxed, through the proxy ${fmt(summary.sandboxed.median)}; ratio ${ratio.toFixed(2)} (target ≤ 1.2); sandboxed with the network allowed, no proxy ${fmt(summary.sandboxedOpen.median)}`,
  );
  const cpuSummary = Object.fromEntries((Object.keys(SIDES) as Side[]).map((side) => [side, cpuMeans(cpu[side])])) as Record<Side, Cpu>;
  const cpuTotal = (c: Cpu) => c.main + c.python + c.relay;
  const cpuRatio = cpuTotal(cpuSummary.sandboxed) / cpuTotal(cpuSummary.unsandboxed);
  for (const side of Object.keys(SIDES) as Side[]) {
    const c = cpuSummary[side];
    console.log(`CPU per download (mean), ${side}: main ${fmt(c.main)}, python ${fmt(c.python)}, relay ${fmt(c.relay)}`);
  }
  console.log(`CPU ratio (main + python + relay), through the proxy against direct: ${cpuRatio.toFixed(2)}`);
  console.log(`load average after: ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`);
  const result = {
    date: new Date().toISOString(),
    machine: { platform: process.platform, arch: process.arch, node: process.version, python: PYTHON, tool: support.tool },
    load: { before: loadBefore, after: loadAfter },
    download: summary,
    ratio,
    cpu: cpuSummary,
    cpuRatio,
  };
  await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
  await writeFile(join(ROOT, 'bench', 'results', 'sandbox-network.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log('written bench/results/sandbox-network.json');
}

interface Cpu {
  main: number;
  python: number;
  relay: number;
}

/** Means, not medians: the relay's CPU is counted in 10 ms ticks, which only a mean over the runs resolves. */
function cpuMeans(runs: Cpu[]): Cpu {
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  return { main: mean(runs.map((r) => r.main)), python: mean(runs.map((r) => r.python)), relay: mean(runs.map((r) => r.relay)) };
}

/** CPU milliseconds used so far by this bench's relays (inside bubblewrap, in a workspace under `dir`). */
function relayCpuMs(dir: string): number {
  let ms = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // The relay names itself (process.title), which replaces its arguments; it runs in the workspace.
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('oi-net-relay')) continue;
      if (!readlinkSync(`/proc/${pid}/cwd`).startsWith(dir)) continue;
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ms += ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    } catch {
      // gone meanwhile
    }
  }
  return ms;
}
const CLOCK_TICKS = 100;

await main();
