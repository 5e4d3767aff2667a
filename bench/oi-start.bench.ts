// What one `oi -m` costs in CPU (issue 36): a one-step text turn of the built CLI against the scripted
// model server, every process of it counted (`/usr/bin/time` of oi and its children: runtime detection's
// probes, the keychain's, none other), cold (a fresh data folder, as every test has) and warm (the same
// data folder and workspace again, as a person's second `oi`). With OI_BENCH_BASE=<another built
// checkout's root> its `oi` takes turns with this one in the same rounds (an A/B of a change), which goes
// first alternating, so a change in the machine's load reaches both alike.
// Run: npm run bench -- oi-start   (needs `npm run build`; writes bench/results/oi-start.json)

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedLlm, type ScriptedLlm } from '../test/fixtures/llm-server';
import { summarize } from './stats';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BASE = process.env.OI_BENCH_BASE;
const RUNS = Number(process.env.OI_START_RUNS ?? 10);
const TIME = '/usr/bin/time';

/** CPU-seconds (user + system, oi and every child it waited for) of one `oi -m` one-step turn. */
async function turn(llm: ScriptedLlm, root: string, data: string): Promise<number> {
  const ws = join(data, 'ws');
  mkdirSync(ws, { recursive: true });
  // The suite's environment (test/support/cli-process.ts cliEnv): the machine's PATH and HOME.
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.endsWith('_API_KEY')) env[k] = v;
  Object.assign(env, { OI_DATA_DIR: data, OI_NO_KEYCHAIN: '1', OI_NO_USER_RC: '1', NO_COLOR: '1', OPENAI_API_KEY: 'sk-bench' });
  llm.enqueue({ kind: 'text', text: 'Done.' });
  const cpuFile = join(data, 'cpu.txt');
  const args = ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl, '--no-sandbox', '-m', 'hello'];
  const child = spawn(TIME, ['-f', '%U %S', '-o', cpuFile, process.execPath, join(root, 'bin', 'oi.mjs'), ...args], {
    env,
    cwd: ws,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  if (code !== 0 || !out.includes('Done.')) throw new Error(`oi -m in ${root} exited with ${code}:\n${out}`);
  const [user = NaN, system = NaN] = readFileSync(cpuFile, 'utf8').trim().split('\n').pop()?.split(' ').map(Number) ?? [];
  return user + system;
}

const builds: Record<string, string> = BASE ? { this: ROOT, base: resolve(BASE) } : { this: ROOT };
for (const root of Object.values(builds)) {
  if (!existsSync(join(root, 'out', 'main', 'cli.js'))) throw new Error(`oi-start bench: ${root} is not built (npm run build)`);
}
const llm = await startScriptedLlm();
const loadBefore = os.loadavg();
const cold: Record<string, number[]> = {};
const warm: Record<string, number[]> = {};
const folders: string[] = [];
try {
  for (let round = 0; round < RUNS; round++) {
    const order = Object.entries(builds);
    for (const [name, root] of round % 2 === 0 ? order : order.reverse()) {
      const data = mkdtempSync(join(os.tmpdir(), 'oi-bench-start-'));
      folders.push(data);
      (cold[name] ??= []).push(await turn(llm, root, data));
      (warm[name] ??= []).push(await turn(llm, root, data));
      rmSync(data, { recursive: true, force: true });
    }
  }
} finally {
  await llm.close();
  for (const data of folders) rmSync(data, { recursive: true, force: true });
}
const loadAfter = os.loadavg();
const figures = (xs: number[]) => {
  const s = summarize(xs);
  return { median: Number(s.median.toFixed(3)), mean: Number((xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(3)) };
};
const table = Object.fromEntries(
  Object.keys(builds).map((name) => {
    const [c, w] = [figures(cold[name] ?? []), figures(warm[name] ?? [])];
    return [name, { coldCpuS: c.median, coldMeanCpuS: c.mean, warmCpuS: w.median, warmMeanCpuS: w.mean }];
  }),
);
console.table(table);
if (BASE) {
  const ratio = (part: Record<string, number[]>) =>
    summarize((part.this ?? []).map((t, i) => t / (part.base?.[i] ?? NaN))).median.toFixed(3);
  console.log(`this / base, median of rounds: cold ${ratio(cold)}, warm ${ratio(warm)}`);
}
console.log(`load average ${loadBefore.map((l) => l.toFixed(1)).join(' ')} before, ${loadAfter.map((l) => l.toFixed(1)).join(' ')} after`);
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
const rows = {
  date: new Date().toISOString(),
  load: { before: loadBefore, after: loadAfter },
  runs: RUNS,
  ...(BASE ? { base: BASE } : {}),
  table,
  samples: { cold, warm },
};
writeFileSync(join(ROOT, 'bench', 'results', 'oi-start.json'), `${JSON.stringify(rows, null, 2)}\n`);
