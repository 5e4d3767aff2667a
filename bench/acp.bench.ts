// ACP benchmark (issue 30): a prompt turn with one cell through `oi acp` against the same turn
// through `oi -m`, both the built CLI (`npm run build`) against the scripted model server, in the
// same rounds, taking turns. Each is timed from spawn to the turn's answer: the prompt's response
// (after initialize and session/new) for `oi acp`, the `turn.end` event line of `oi -m --json`. The
// overhead is the median of the per-round differences (target: ≤ 20 ms), the ratio the median of
// the per-round ratios, so a change in load during the run reaches both alike. OI_BENCH_BASE=<root of
// another build> also times that build's `oi acp` turn in the same rounds (an A/B of a change).
// Beside the wall times, the CPU time each process has used at that moment (its threads' time on a
// core, /proc/<pid>/task/*/schedstat, Linux): on a machine others load, that is the figure that can
// still tell two builds apart (the wall times then say more about the load than about oi).
// Run: npm run bench -- acp   (writes bench/results/acp.json)

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { client, ndJsonStream, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { startScriptedLlm, type ScriptedLlm, type ScriptedReply } from '../test/fixtures/llm-server';
import { summarize } from './stats';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OI = join(ROOT, 'bin', 'oi.mjs');
const RUNS = Number(process.env.ACP_RUNS ?? 9);
const BASE = process.env.OI_BENCH_BASE;
const CELL: ScriptedReply = { kind: 'tool', calls: [{ id: 'b', name: 'execute', arguments: { language: 'shell', code: 'echo 1' } }] };
const ANSWER: ScriptedReply = { kind: 'text', text: 'It printed 1.' };

function setup(llm: ScriptedLlm): { env: Record<string, string>; ws: string; data: string; flags: string[] } {
  const data = mkdtempSync(join(os.tmpdir(), 'oi-bench-acp-'));
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
  // The sandbox left out of both: it is the same in both and would only add its own noise.
  return {
    env,
    ws,
    data,
    flags: ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl, '--auto-run', '--no-sandbox'],
  };
}

/** CPU-ms the process's threads have used so far, all and its main thread's (NaN where /proc has no schedstat). */
function cpuMs(pid: number | undefined): { all: number; main: number } {
  const of = (task: string) => Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  try {
    return { all: readdirSync(`/proc/${pid}/task`).reduce((sum, t) => sum + of(t), 0), main: of(String(pid)) };
  } catch {
    return { all: NaN, main: NaN };
  }
}

interface Turn {
  ms: number;
  cpu: { all: number; main: number };
}

async function oneShotTurn(llm: ScriptedLlm): Promise<Turn> {
  const { env, ws, data, flags } = setup(llm);
  llm.enqueue(CELL, ANSWER);
  const start = performance.now();
  const child = spawn(process.execPath, [OI, ...flags, '--json', '-m', 'print 1'], { env, cwd: ws, stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  const turn = await new Promise<Turn>((done, fail) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('{"name":"turn.end"')) done({ ms: performance.now() - start, cpu: cpuMs(child.pid) });
    });
    child.once('exit', () => fail(new Error(`oi -m ended without a turn.end:\n${out}`)));
  });
  await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
  rmSync(data, { recursive: true, force: true });
  return turn;
}

async function acpTurn(llm: ScriptedLlm, oi = OI): Promise<{ cold: Turn; warm: number }> {
  const { env, ws, data, flags } = setup(llm);
  llm.enqueue(CELL, ANSWER);
  const start = performance.now();
  const child = spawn(process.execPath, [oi, 'acp', ...flags], { env, cwd: ws, stdio: ['pipe', 'pipe', 'ignore'] });
  const connection = client({ name: 'oi-bench' }).connect(
    ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>),
  );
  await connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
  const { sessionId } = await connection.agent.request('session/new', { cwd: ws, mcpServers: [] });
  const first = await connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'print 1' }] });
  const cold = { ms: performance.now() - start, cpu: cpuMs(child.pid) };
  // A second turn in the running process: what a turn costs once the editor has started the agent.
  llm.enqueue(CELL, ANSWER);
  const again = performance.now();
  const second = await connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'print 1' }] });
  const warm = performance.now() - again;
  if (first.stopReason !== 'end_turn' || second.stopReason !== 'end_turn')
    throw new Error(`turns ended ${first.stopReason}, ${second.stopReason}`);
  connection.close();
  child.stdin.end();
  await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
  rmSync(data, { recursive: true, force: true });
  return { cold, warm };
}

if (!existsSync(join(ROOT, 'out', 'main', 'cli.js'))) {
  console.error('acp bench: run `npm run build` first (it measures the built oi)');
  process.exit(1);
}
const llm = await startScriptedLlm();
const oneShot: Turn[] = [];
const acp: Turn[] = [];
const warm: number[] = [];
const base: Turn[] = [];
for (let round = 0; round < RUNS; round++) {
  // Taking turns, and which goes first alternates, so neither always runs on the other's warm caches.
  const first = round % 2 === 0;
  if (first) oneShot.push(await oneShotTurn(llm));
  if (BASE && first) base.push((await acpTurn(llm, join(BASE, 'bin', 'oi.mjs'))).cold);
  const a = await acpTurn(llm);
  if (BASE && !first) base.push((await acpTurn(llm, join(BASE, 'bin', 'oi.mjs'))).cold);
  if (!first) oneShot.push(await oneShotTurn(llm));
  acp.push(a.cold);
  warm.push(a.warm);
}
await llm.close();
const median = (xs: number[]) => summarize(xs).median;
const ms = (ts: Turn[]) => ts.map((t) => t.ms);
const cpu = (ts: Turn[]) => ts.map((t) => t.cpu.all);
const mainCpu = (ts: Turn[]) => ts.map((t) => t.cpu.main);
/** The median of the per-round differences. */
const over = (xs: number[], ys: number[]) => median(xs.map((x, i) => x - (ys[i] ?? NaN)));
const rows = {
  load: os.loadavg()[0],
  runs: RUNS,
  oiMTurnMs: median(ms(oneShot)),
  oiAcpTurnMs: median(ms(acp)),
  acpOverheadMs: over(ms(acp), ms(oneShot)),
  acpOverOiM: median(acp.map((a, i) => a.ms / (oneShot[i]?.ms ?? NaN))),
  oiAcpWarmTurnMs: median(warm),
  oiMCpuMs: median(cpu(oneShot)),
  oiAcpCpuMs: median(cpu(acp)),
  acpCpuOverheadMs: over(cpu(acp), cpu(oneShot)),
  acpMainThreadCpuOverheadMs: over(mainCpu(acp), mainCpu(oneShot)),
  ...(BASE
    ? {
        baseAcpTurnMs: median(ms(base)),
        baseOverheadMs: over(ms(base), ms(oneShot)),
        acpOverBase: median(acp.map((a, i) => a.ms / (base[i]?.ms ?? NaN))),
        baseAcpCpuMs: median(cpu(base)),
        acpCpuOverBaseMs: over(cpu(acp), cpu(base)),
        acpMainThreadCpuOverBaseMs: over(mainCpu(acp), mainCpu(base)),
      }
    : {}),
};
console.table(rows);
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'results', 'acp.json'), `${JSON.stringify(rows, null, 2)}\n`);
