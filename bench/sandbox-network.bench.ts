// The network proxy's cost (issue 24 item 6): a 50 MB download from a local server by a Python cell,
// sandboxed through the app's proxy (relay inside bubblewrap → Unix socket → proxy → server) against
// the same download by an unsandboxed cell straight to the server, side by side in one run.
// Run: npm run bench -- sandbox-network   (writes bench/results/sandbox-network.json). Target ≤ 1.2×.
//
// The two sides alternate so a change in the machine's load colours both alike; the download is read
// in 1 MiB chunks and thrown away, so what is measured is the transport, not Python's memory.

import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
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
    'import urllib.request',
    `r = urllib.request.urlopen("http://${HOST}:${port}/", timeout=300)`,
    'n = 0',
    'while True:',
    '    b = r.read(1 << 20)',
    '    if not b: break',
    '    n += len(b)',
    'print(n)',
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
    const t = performance.now();
    const result = await service.run(request);
    const ms = performance.now() - t;
    if (result.status !== 'done' || !result.forModel.includes(String(BYTES)))
      throw new Error(`${side} download failed: ${result.forModel}`);
    return ms;
  };
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
  console.log(`load average after: ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`);
  const result = {
    date: new Date().toISOString(),
    machine: { platform: process.platform, arch: process.arch, node: process.version, python: PYTHON, tool: support.tool },
    load: { before: loadBefore, after: loadAfter },
    download: summary,
    ratio,
  };
  await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
  await writeFile(join(ROOT, 'bench', 'results', 'sandbox-network.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log('written bench/results/sandbox-network.json');
}

await main();
