// Profile one `oi -m --auto-run` turn of N steps against the scripted model (issue 37's step overhead,
// docs/exec.md "Fifth pass"): npx tsx bench/step-profile.ts <steps> <out-dir> [oi.mjs] [--strace | --cpu]
// - default: a CPU profile of the oi process (node --cpu-prof, 250 µs) in <out-dir>;
// - --strace: system-call counts of oi and its children (strace -f -c) in <out-dir>/strace.txt, or with
//   STRACE_FULL=1 every call with its time (strace -f -tt) in <out-dir>/strace.log;
// - --cpu: no profiler; the oi process's own CPU from turn.start to turn.end (/proc), each thread's
//   with STEP_THREADS=1, and its children's (the runner's).
// STEP_NODE_ARGS adds node options (--trace-gc; STEP_OTHER_LINES=1 keeps its lines), STEP_TIMELINE=1
// writes each event line's arrival time (STEP_LINE_CHARS of each line, 110 unless set), STEP_STDERR=1
// shows oi's stderr. Not a bench (not run by run.ts).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedLlm, type ScriptedReply } from '../test/fixtures/llm-server';
import { runningTreeCpuByKind } from '../test/support/file-cpu';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const steps = Number(process.argv[2] ?? 60);
const outDir = resolve(process.argv[3] ?? '/tmp/oi-step-prof');
// [oi.mjs]: another build's bin/oi.mjs, or its root (as OI_BENCH_BASE takes it).
const given = process.argv[4] && !process.argv[4].startsWith('--') ? resolve(process.argv[4]) : join(ROOT, 'bin', 'oi.mjs');
const oi = existsSync(given) && statSync(given).isDirectory() ? join(given, 'bin', 'oi.mjs') : given;
const strace = process.argv.includes('--strace');
// --cpu: no profiler; the oi process's own CPU (its threads, not its children) from turn.start to turn.end.
const cpuOnly = process.argv.includes('--cpu');
mkdirSync(outDir, { recursive: true });
const cells: ScriptedReply[] = Array.from({ length: steps - 1 }, (_, i) => ({
  kind: 'tool',
  calls: [{ id: `c${i}`, name: 'execute', arguments: { language: 'python', code: `n = ${i}\nprint(n * 2)` } }],
}));
const llm = await startScriptedLlm({ chunkSize: 4096 });
llm.enqueue(...cells, { kind: 'text', text: 'Done.' });
const data = mkdtempSync(join(os.tmpdir(), 'oi-step-prof-'));
mkdirSync(join(data, 'ws'));
const node = [
  process.execPath,
  ...(process.env.STEP_NODE_ARGS?.split(' ') ?? []),
  ...(strace || cpuOnly ? [] : ['--cpu-prof', '--cpu-prof-interval', '250', '--cpu-prof-dir', outDir]),
  oi,
];
const args = [
  ...'--provider openai --model gpt-4o --base-url'.split(' '),
  llm.openaiBaseUrl,
  ...'--auto-run --no-sandbox --json -m count'.split(' '),
];
const command = strace
  ? process.env.STRACE_FULL
    ? ['strace', '-f', '-tt', '-s', '80', '-o', join(outDir, 'strace.log'), ...node]
    : ['strace', '-f', '-c', '-o', join(outDir, 'strace.txt'), ...node]
  : node;
const child = spawn(command[0] ?? '', [...command.slice(1), ...args], {
  cwd: join(data, 'ws'),
  env: { PATH: process.env.PATH ?? '', HOME: data, OI_DATA_DIR: data, OI_NO_KEYCHAIN: '1', NO_COLOR: '1', OPENAI_API_KEY: 'sk-bench' },
  stdio: ['ignore', 'pipe', process.env.STEP_STDERR ? 'inherit' : 'ignore'],
});
let out = '';
const stamps: string[] = [];
const cpuMarks: number[] = [];
const threadMarks: Array<Map<string, number>> = [];
/** Each thread's CPU (ms) by its name and id. */
const threadsOf = (pid = 0): Map<string, number> => {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      out.set(`${name}#${tid}`, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // ended meanwhile
    }
  }
  return out;
};
/** utime + stime of one process, in ms (/proc/<pid>/stat, clock ticks of 10 ms). */
const cpuOf = (pid = 0): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
/** CPU (ms) of the processes below oi (the runner, and those oi has reaped: the tree's less oi's own). */
const childMarks: number[] = [];
const childrenCpu = (pid = 0): number => (runningTreeCpuByKind(pid).get('main') ?? NaN) * 1000 - cpuOf(pid);
child.stdout.on('data', (c: Buffer) => {
  const now = performance.now();
  out += c.toString();
  if (cpuOnly && /"name":"turn\.(start|end)"/.test(c.toString())) {
    cpuMarks.push(cpuOf(child.pid));
    threadMarks.push(threadsOf(child.pid));
    childMarks.push(childrenCpu(child.pid));
  }
  for (const l of c.toString().split('\n'))
    if (l.startsWith('{')) stamps.push(`${now.toFixed(1)} ${l.slice(0, Number(process.env.STEP_LINE_CHARS ?? 110))}`);
});
const started = performance.now();
await new Promise((r) => child.once('exit', r));
const lines = out.split('\n').filter((l) => l.startsWith('{'));
if (process.env.STEP_OTHER_LINES)
  writeFileSync(
    join(outDir, 'other-lines.txt'),
    out
      .split('\n')
      .filter((l) => !l.startsWith('{'))
      .join('\n'),
  );
const turnCpu = (cpuMarks[1] ?? NaN) - (cpuMarks[0] ?? NaN);
if (cpuOnly) console.log(`oi CPU in the turn: ${turnCpu} ms, ${(turnCpu / steps).toFixed(2)} ms a step`);
if (cpuOnly && process.env.STEP_THREADS) {
  const [a, b] = threadMarks;
  for (const [name, ms] of b ?? []) if (ms - (a?.get(name) ?? 0) > 0) console.log(`  ${name}: ${ms - (a?.get(name) ?? 0)} ms`);
}
if (cpuOnly) console.log(`oi's children (the runner…) CPU in the turn: ${(childMarks[1] ?? NaN) - (childMarks[0] ?? NaN)} ms`);
console.log(
  `${steps} steps, ${(performance.now() - started).toFixed(0)} ms, ${lines.filter((l) => l.includes('"cell.done"')).length} cells, end: ${/"reason":"([^"]+)"/.exec(lines.find((l) => l.includes('turn.end')) ?? '')?.[1]}`,
);
if (process.env.STEP_TIMELINE) writeFileSync(join(outDir, 'timeline.txt'), stamps.join('\n'));
await llm.close();
rmSync(data, { recursive: true, force: true });
