// Agent step overhead (issue 37): what the app adds to each step of a turn beyond the model and the
// cell. The built CLI (`npm run build`), `oi -m --auto-run --json --no-sandbox`, against the scripted
// model server (test/fixtures/llm-server.ts through the official OpenAI SDK), in rounds that take
// turns: a 1-step turn (the model answers at once) and a 20-step turn (19 Python `print` cells, then
// the answer), each in a fresh process and data folder. Per turn, from the `turn.start` event line to
// `turn.end`, less the model's own time (the server's, from a request's arrival to its reply's last
// byte) and the cells' own (the engine's run time, each cell's `durationMs`). The overhead per step is
// (20-step − 1-step) / 19 of what is left, per round; the median of rounds is reported (target < 20 ms).
// Run: npm run bench -- agent-step   (writes bench/results/agent-step.json)

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedLlm, type RecordedRequest, type ScriptedLlm, type ScriptedReply } from '../test/fixtures/llm-server';
import { summarize } from './stats';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OI = join(ROOT, 'bin', 'oi.mjs');
// Another build measured beside this one in the same rounds (an A/B of a change): its root (holding
// bin/ and out/, as the mcp and acp benches take it) or its bin/oi.mjs. Given a root, node was handed
// the folder and ran its package.json's `main` (the Electron app's, which ends at once without
// Electron): round 13's A/B failed so, with "oi -m ended without a turn.end (1 steps)".
const BASE = baseOi(process.env.OI_BENCH_BASE);
const RUNS = Number(process.env.STEP_RUNS ?? 7);
const LONG = 20;
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

/** The other build's bin/oi.mjs, from its root or the file itself; a clear error if it is not a built checkout. */
function baseOi(given: string | undefined): string | undefined {
  if (!given) return undefined;
  const oi = existsSync(given) && statSync(given).isDirectory() ? join(given, 'bin', 'oi.mjs') : given;
  const built = join(dirname(oi), '..', 'out', 'main', 'cli.js');
  if (!existsSync(oi) || !existsSync(built)) {
    console.error(`agent-step bench: OI_BENCH_BASE=${given} is not a built checkout (${existsSync(oi) ? built : oi} is missing)`);
    process.exit(1);
  }
  return resolve(oi);
}

interface Turn {
  /** turn.start → turn.end, as the lines arrive. */
  turnMs: number;
  /** The model's own time, summed over the turn's calls (server side). */
  modelMs: number;
  /** The cells' own time, summed (the engine's, each cell's durationMs). */
  cellMs: number;
  steps: number;
  /** CPU of oi and its children (the runner) over the whole process, user + system (/usr/bin/time). */
  cpuMs: number;
}

function replies(steps: number): ScriptedReply[] {
  const cells: ScriptedReply[] = Array.from({ length: steps - 1 }, (_, i) => ({
    kind: 'tool',
    calls: [{ id: `c${i}`, name: 'execute', arguments: { language: 'python', code: `n = ${i}\nprint(n * 2)` } }],
  }));
  return [...cells, { kind: 'text', text: 'Done.' }];
}

/** The model calls of the turn going on, and each one's time once its reply is written whole. */
const calls: RecordedRequest[] = [];
const replied = new Map<RecordedRequest, number>();

async function turn(llm: ScriptedLlm, steps: number, oi: string): Promise<Turn> {
  const data = mkdtempSync(join(os.tmpdir(), 'oi-bench-step-'));
  const ws = join(data, 'ws');
  mkdirSync(ws);
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: data,
    OI_DATA_DIR: data,
    OI_NO_KEYCHAIN: '1',
    NO_COLOR: '1',
    OPENAI_API_KEY: 'sk-bench',
  };
  llm.enqueue(...replies(steps));
  calls.length = 0;
  const args = ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl, '--auto-run', '--no-sandbox', '--json'];
  // CPU time is what a loaded machine leaves comparable: wall time there is mostly waiting for a core.
  const cpuFile = join(data, 'cpu.txt');
  const command = TIME ? [TIME, '-f', '%U %S', '-o', cpuFile, process.execPath] : [process.execPath];
  const child = spawn(command[0] ?? '', [...command.slice(1), oi, ...args, '-m', 'count'], {
    env,
    cwd: ws,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Its last words, for the error when a turn does not end (a build that cannot run, a crash).
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-2000)));
  let rest = '';
  let start = NaN;
  let cellMs = 0;
  let reason = '';
  const turnMs = await new Promise<number>((done, fail) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const now = performance.now();
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        const name = /^\{"name":"([^"]+)"/.exec(line)?.[1];
        if (name === 'turn.start') start = now;
        else if (name === 'cell.done') cellMs += Number(/"durationMs":(\d+)/.exec(line)?.[1] ?? NaN);
        else if (name === 'turn.end') {
          reason = /"reason":"([^"]+)"/.exec(line)?.[1] ?? '?';
          done(now - start);
        }
      }
    });
    child.once('close', (code) => fail(new Error(`${oi} -m ended without a turn.end (${steps} steps, exit ${code}):\n${stderr}`)));
  });
  await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
  const [user = NaN, system = NaN] = TIME ? (readFileSync(cpuFile, 'utf8').trim().split('\n').pop()?.split(' ').map(Number) ?? []) : [];
  rmSync(data, { recursive: true, force: true });
  if (calls.length !== steps) throw new Error(`${calls.length} model calls for a ${steps}-step turn (it ended: ${reason})`);
  // The server may finish its last write just after the client has read it all.
  for (let waited = 0; calls.some((c) => !replied.has(c)) && waited < 200; waited++) await new Promise((r) => setTimeout(r, 10));
  return { turnMs, modelMs: calls.reduce((a, c) => a + (replied.get(c) ?? NaN), 0), cellMs, steps, cpuMs: (user + system) * 1000 };
}

if (!existsSync(join(ROOT, 'out', 'main', 'cli.js'))) {
  console.error('agent-step bench: run `npm run build` first (it measures the built oi)');
  process.exit(1);
}
const chat = (request: RecordedRequest): boolean => request.path === '/v1/chat/completions';
const llm = await startScriptedLlm({
  chunkSize: 4096,
  onRequest: (request) => {
    if (chat(request)) calls.push(request);
  },
  onReplied: (request, ms) => {
    if (chat(request)) replied.set(request, ms);
  },
});
const loadBefore = os.loadavg();
const builds: Record<string, string> = BASE ? { this: OI, base: BASE } : { this: OI };
const short: Record<string, Turn[]> = {};
const long: Record<string, Turn[]> = {};
for (let round = 0; round < RUNS; round++) {
  // Taking turns, and which goes first alternates, so neither always runs on the other's warm caches.
  const order = Object.entries(builds);
  for (const [name, oi] of round % 2 === 0 ? order : order.reverse()) {
    if (round % 2 === 0) (short[name] ??= []).push(await turn(llm, 1, oi));
    (long[name] ??= []).push(await turn(llm, LONG, oi));
    if (round % 2 === 1) (short[name] ??= []).push(await turn(llm, 1, oi));
  }
}
await llm.close();
const loadAfter = os.loadavg();
const median = (xs: number[]): number => summarize(xs).median;
const own = (t: Turn): number => t.turnMs - t.modelMs - t.cellMs;
const measure = (name: string): Record<string, number> => {
  const s = short[name] ?? [];
  const l = long[name] ?? [];
  return {
    oneStepTurnMs: median(s.map((t) => t.turnMs)),
    twentyStepTurnMs: median(l.map((t) => t.turnMs)),
    perStepMs: median(l.map((t, i) => (t.turnMs - (s[i]?.turnMs ?? NaN)) / (LONG - 1))),
    modelPerCallMs: median(l.map((t) => t.modelMs / t.steps)),
    cellPerStepMs: median(l.map((t) => t.cellMs / (t.steps - 1))),
    overheadPerStepMs: median(l.map((t, i) => (own(t) - own(s[i] ?? t)) / (LONG - 1))),
    cpuPerStepMs: median(l.map((t, i) => (t.cpuMs - (s[i]?.cpuMs ?? NaN)) / (LONG - 1))),
  };
};
const table = Object.fromEntries(Object.keys(builds).map((name) => [name, measure(name)]));
const rows = {
  date: new Date().toISOString(),
  load: { before: loadBefore, after: loadAfter },
  runs: RUNS,
  ...(BASE ? { base: BASE } : {}),
  ...table,
  target: 'overheadPerStepMs < 20',
};
console.table(table);
console.log(`load average ${loadBefore.map((l) => l.toFixed(1)).join(' ')} before, ${loadAfter.map((l) => l.toFixed(1)).join(' ')} after`);
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'results', 'agent-step.json'), `${JSON.stringify(rows, null, 2)}\n`);
