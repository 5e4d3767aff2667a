// "Re-run all" (issue 37): a 200-cell Python notebook re-run through the app (createApp: the import,
// the re-run of notebook.rerun with its events and the save at the end, the engine) against the same
// cells sent one by one to a Jupyter kernel through jupyter_client, side by side in one run:
// - warm: the session (ours) or kernel (theirs) already started, all cells again (target ≤ 0.2×);
// - cold: a fresh conversation (ours: its Python session starts with the first cell) against a kernel
//   started for the notebook, start included (target ≤ 0.25×).
// The two sides alternate round by round, so a change in the machine's load colours both alike.
// Run: npm run bench -- rerun   (writes bench/results/rerun.json)

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createApp } from '../src-main/core/app';
import { importNotebook } from '../src-main/core/notebook/api';
import { saveImportedNotebook } from '../src-main/core/notebook/imported-conversation';
import { MemorySecretStore } from '../src-main/core/secrets/memory-secret-store';
import { MemorySettingsStore } from '../src-main/core/settings/memory-settings-store';
import { kernelAvailable } from './jupyter-kernel-driver';
import { summarize } from './stats';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PYTHON = process.env.OI_BENCH_PYTHON ?? '/usr/bin/python3';
const CELLS = Number(process.env.RERUN_CELLS ?? 200);
const ROUNDS = Number(process.env.RERUN_ROUNDS ?? 5);
const cells = Array.from({ length: CELLS }, (_, i) => `x${i} = ${i} * 2\nprint(x${i})`);

// The kernel's side: one command a line (`cold`: a fresh kernel, then every cell; `warm`: every cell
// again in that kernel), its milliseconds back as a line.
const DRIVER = String.raw`
import json, sys, time
from jupyter_client.manager import KernelManager
cells = json.load(open(sys.argv[1]))
km = kc = None
def stop():
    global km, kc
    if km is not None:
        kc.stop_channels(); km.shutdown_kernel(now=True)
    km = kc = None
def run_all():
    for code in cells:
        reply = kc.execute_interactive(code, output_hook=lambda msg: None, timeout=600)
        if reply['content']['status'] != 'ok':
            raise SystemExit('cell failed: ' + code)
for line in sys.stdin:
    command = line.strip()
    t = time.perf_counter()
    if command == 'cold':
        stop()
        km = KernelManager(kernel_name='python3'); km.start_kernel()
        kc = km.client(); kc.start_channels(); kc.wait_for_ready(timeout=120)
    elif command != 'warm':
        break
    run_all()
    print(json.dumps((time.perf_counter() - t) * 1000), flush=True)
stop()
`;

function notebookText(): string {
  return JSON.stringify({
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' }, language_info: { name: 'python' } },
    cells: cells.map((source, i) => ({ cell_type: 'code', id: `c${i}`, metadata: {}, execution_count: null, outputs: [], source })),
  });
}

async function main(): Promise<void> {
  const version = await kernelAvailable(PYTHON);
  if (!version) {
    console.log(`rerun bench skipped: ${PYTHON} has no jupyter_client/ipykernel`);
    return;
  }
  const dir = mkdtempSync(join(os.tmpdir(), 'oi-bench-rerun-'));
  const cellsFile = join(dir, 'cells.json');
  writeFileSync(cellsFile, JSON.stringify(cells));
  writeFileSync(join(dir, 'driver.py'), DRIVER);
  const driver = spawn(PYTHON, [join(dir, 'driver.py'), cellsFile], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, PYDEVD_DISABLE_FILE_VALIDATION: '1' },
  });
  const lines = createInterface({ input: driver.stdout })[Symbol.asyncIterator]();
  const kernel = async (command: 'cold' | 'warm'): Promise<number> => {
    driver.stdin.write(`${command}\n`);
    const line = await lines.next();
    if (line.done) throw new Error(`the kernel driver ended during ${command}`);
    return JSON.parse(line.value) as number;
  };

  const settings = new MemorySettingsStore({ exec: { pythonPath: PYTHON }, sandbox: { enabled: false, chosen: true } });
  const app = createApp({
    dataDir: join(dir, 'data'),
    settings,
    secrets: new MemorySecretStore(),
    resourcesDir: join(ROOT, 'resources'),
    version: 'bench',
    env: {},
  });
  const text = notebookText();
  const imported = async (): Promise<string> => {
    const parsed = importNotebook(text, { maxBytes: 64 * 1024 * 1024, fileName: 'bench.ipynb', modelOutputChars: 4000 });
    return (await saveImportedNotebook(app.context.conversations, parsed)).id;
  };
  const rerun = async (conversationId: string): Promise<number> => {
    const t = performance.now();
    const done = new Promise<void>((ok, fail) => {
      const off = app.events.subscribe((event) => {
        if (event.name !== 'notebook.rerun-done' || event.payload.conversationId !== conversationId) return;
        off();
        if (event.payload.outcome === 'completed') ok();
        else fail(new Error(`re-run ${event.payload.outcome}: ${JSON.stringify(event.payload)}`));
      });
    });
    await app.context.reruns.start(conversationId);
    await done;
    return performance.now() - t;
  };

  const loadBefore = os.loadavg();
  const ours = { warm: [] as number[], cold: [] as number[] };
  const theirs = { warm: [] as number[], cold: [] as number[] };
  try {
    console.log(
      `rerun bench: ${CELLS} cells, python ${PYTHON}, jupyter_client/ipykernel ${version}, load ${loadBefore.map((l) => l.toFixed(2)).join(' ')}`,
    );
    // Untimed: the first of each side pays for runtime detection and the file cache.
    await kernel('cold');
    await rerun(await imported());
    for (let round = 0; round < ROUNDS; round++) {
      const conversationId = await imported();
      const mineFirst = round % 2 === 0;
      if (!mineFirst) theirs.cold.push(await kernel('cold'));
      ours.cold.push(await rerun(conversationId));
      if (mineFirst) theirs.cold.push(await kernel('cold'));
      if (!mineFirst) theirs.warm.push(await kernel('warm'));
      ours.warm.push(await rerun(conversationId));
      if (mineFirst) theirs.warm.push(await kernel('warm'));
      await app.context.exec.closeConversation(conversationId);
      console.error(
        `round ${round + 1}: cold ${ours.cold.at(-1)!.toFixed(0)} / ${theirs.cold.at(-1)!.toFixed(0)} ms, warm ${ours.warm.at(-1)!.toFixed(0)} / ${theirs.warm.at(-1)!.toFixed(0)} ms`,
      );
    }
  } finally {
    driver.stdin.end('quit\n');
    await app.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
  const loadAfter = os.loadavg();
  const median = (xs: number[]): number => summarize(xs).median;
  const ratio = (a: number[], b: number[]): number => median(a.map((x, i) => x / (b[i] ?? NaN)));
  const rows = {
    date: new Date().toISOString(),
    cells: CELLS,
    rounds: ROUNDS,
    load: { before: loadBefore, after: loadAfter },
    jupyter: version,
    oursWarmMs: median(ours.warm),
    kernelWarmMs: median(theirs.warm),
    warmRatio: ratio(ours.warm, theirs.warm),
    oursColdMs: median(ours.cold),
    kernelColdMs: median(theirs.cold),
    coldRatio: ratio(ours.cold, theirs.cold),
    targets: { warm: 0.2, cold: 0.25 },
  };
  console.table(rows);
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', 'rerun.json'), `${JSON.stringify(rows, null, 2)}\n`);
}

await main();
