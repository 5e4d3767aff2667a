// Soak (issue 37): 60 conversations opened 10 at a time, each a 20-step turn (19 Python cells and an
// answer) from the scripted model (test/fixtures/llm-server.ts, through the official OpenAI SDK), in
// the real app (createApp: engine, checkpoints, conversation files), sandbox off. Two passes side by
// side, each in a fresh process so one cannot colour the other's memory:
// - `never`: exec.sessionIdleMs 0, every conversation's Python runner and open copy kept (as before);
// - `idle`: a short idle time (OI_SOAK_IDLE_MS, default 2 s), so the sessions and open copies of
//   finished rounds are let go (docs/exec.md#idle-sessions).
// Reported per pass: main's RSS (after a full GC) after the first round and after the last, their
// ratio (target ≤ 1.2× for `idle`), the processes main still has as children, and each round's time.
// Run: npm run bench -- soak   (writes bench/results/soak.json)

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../src-main/core/app';
import { MemorySecretStore } from '../src-main/core/secrets/memory-secret-store';
import { MemorySettingsStore } from '../src-main/core/settings/memory-settings-store';
import { startScriptedLlm, type ScriptedLlm } from '../test/fixtures/llm-server';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CONVERSATIONS = Number(process.env.OI_SOAK_CONVERSATIONS ?? 60);
const BATCH = Number(process.env.OI_SOAK_BATCH ?? 10);
const STEPS = Number(process.env.OI_SOAK_STEPS ?? 20);
const IDLE_MS = Number(process.env.OI_SOAK_IDLE_MS ?? 2000);

interface PassResult {
  pass: 'never' | 'idle';
  sessionIdleMs: number;
  rssFirstRoundMb: number;
  rssLastRoundMb: number;
  lastOverFirst: number;
  /** The JavaScript heap in use after a full GC: what main itself still holds, apart from the allocator's pages. */
  heapFirstRoundMb: number;
  heapLastRoundMb: number;
  childrenAfterFirstRound: number;
  childrenAfterLastRound: number;
  roundSeconds: number[];
  loadDuring: number;
}

/** Processes whose parent is this one: the sessions main still holds (runners, shells). */
function children(): number {
  let n = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid) n++;
    } catch {
      // Gone meanwhile.
    }
  }
  return n;
}

function memoryMb(): { rss: number; heap: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss: rss / 1024 / 1024, heap: heapUsed / 1024 / 1024 };
}

/** Each model call answers from the conversation's own history: a cell until STEPS - 1 ran, then the answer. */
function scriptFor(llm: () => ScriptedLlm): (request: { path: string; body: unknown }) => void {
  return ({ path, body }) => {
    if (path !== '/v1/chat/completions') return;
    const messages = ((body as { messages?: Array<{ role: string }> }).messages ?? []).filter((m) => m.role === 'tool');
    const step = messages.length;
    llm().enqueue(
      step < STEPS - 1
        ? {
            kind: 'tool',
            calls: [{ id: `c${step}`, name: 'execute', arguments: { language: 'python', code: `n = ${step}\nprint(n * 2)` } }],
          }
        : { kind: 'text', text: 'Done.' },
    );
  };
}

async function pass(name: 'never' | 'idle'): Promise<PassResult> {
  const sessionIdleMs = name === 'idle' ? IDLE_MS : 0;
  let llm: ScriptedLlm | null = null;
  llm = await startScriptedLlm({ chunkSize: 4096, onRequest: scriptFor(() => llm!) });
  const dataDir = mkdtempSync(join(os.tmpdir(), 'oi-bench-soak-'));
  const secrets = new MemorySecretStore();
  await secrets.set('provider:openai', 'sk-bench');
  const settings = new MemorySettingsStore({
    provider: 'openai',
    baseUrl: llm.openaiBaseUrl,
    model: 'gpt-bench',
    autoRun: true,
    sandbox: { enabled: false, chosen: true },
    exec: { sessionIdleMs },
  });
  const app = createApp({ dataDir, settings, secrets, resourcesDir: join(ROOT, 'resources'), version: 'bench', env: {} });
  app.warmUp();
  const rounds: number[] = [];
  const rss: number[] = [];
  const heap: number[] = [];
  const kids: number[] = [];
  const loads: number[] = [];
  try {
    for (let start = 0; start < CONVERSATIONS; start += BATCH) {
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: Math.min(BATCH, CONVERSATIONS - start) }, async () => {
          const { id } = await app.context.conversations.create();
          await app.context.agent.send(id, 'count', []);
          await app.context.agent.idle(id);
          const conv = await app.context.agent.snapshot(id);
          const cells = conv.items.filter((i) => i.kind === 'cell' && i.status === 'done').length;
          if (cells !== STEPS - 1) throw new Error(`conversation ${id}: ${cells} cells done, expected ${STEPS - 1}`);
        }),
      );
      rounds.push((performance.now() - t0) / 1000);
      loads.push(os.loadavg()[0] ?? NaN);
      const memory = memoryMb();
      rss.push(memory.rss);
      heap.push(memory.heap);
      kids.push(children());
      console.error(
        `${name}: round ${rounds.length} ${rounds.at(-1)!.toFixed(1)} s, rss ${rss.at(-1)!.toFixed(0)} MB, heap ${heap.at(-1)!.toFixed(0)} MB, ${kids.at(-1)} children`,
      );
    }
  } finally {
    await app.dispose();
    await llm.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return {
    pass: name,
    sessionIdleMs,
    rssFirstRoundMb: Math.round(rss[0]!),
    rssLastRoundMb: Math.round(rss.at(-1)!),
    lastOverFirst: Number((rss.at(-1)! / rss[0]!).toFixed(3)),
    heapFirstRoundMb: Math.round(heap[0]!),
    heapLastRoundMb: Math.round(heap.at(-1)!),
    childrenAfterFirstRound: kids[0]!,
    childrenAfterLastRound: kids.at(-1)!,
    roundSeconds: rounds.map((s) => Number(s.toFixed(2))),
    loadDuring: Number((loads.reduce((a, b) => a + b, 0) / loads.length).toFixed(1)),
  };
}

const only = process.env.OI_SOAK_PASS;
if (only === 'never' || only === 'idle') {
  // One pass, in this process: its result on the last line of stdout.
  console.log(JSON.stringify(await pass(only)));
  process.exit(0);
}

const results: PassResult[] = [];
for (const name of ['never', 'idle'] as const) {
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: { ...process.env, OI_SOAK_PASS: name },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`the ${name} pass failed (exit ${run.status})`);
  results.push(JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as PassResult);
}
const [never, idle] = results as [PassResult, PassResult];
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const rows = {
  conversations: CONVERSATIONS,
  batch: BATCH,
  steps: STEPS,
  load: os.loadavg()[0],
  never,
  idle,
  rssGrowthIdle: idle.lastOverFirst,
  rssGrowthNever: never.lastOverFirst,
  lastRoundOverFirstIdle: Number((idle.roundSeconds.at(-1)! / idle.roundSeconds[0]!).toFixed(3)),
  lastRoundOverFirstNever: Number((never.roundSeconds.at(-1)! / never.roundSeconds[0]!).toFixed(3)),
  meanRoundIdleOverNever: Number((mean(idle.roundSeconds) / mean(never.roundSeconds)).toFixed(3)),
};
console.table({
  never: {
    heapFirstMb: never.heapFirstRoundMb,
    heapLastMb: never.heapLastRoundMb,
    rssFirstMb: never.rssFirstRoundMb,
    rssLastMb: never.rssLastRoundMb,
    growth: never.lastOverFirst,
    children: never.childrenAfterLastRound,
    meanRoundS: mean(never.roundSeconds).toFixed(2),
    load: never.loadDuring,
  },
  idle: {
    heapFirstMb: idle.heapFirstRoundMb,
    heapLastMb: idle.heapLastRoundMb,
    rssFirstMb: idle.rssFirstRoundMb,
    rssLastMb: idle.rssLastRoundMb,
    growth: idle.lastOverFirst,
    children: idle.childrenAfterLastRound,
    meanRoundS: mean(idle.roundSeconds).toFixed(2),
    load: idle.loadDuring,
  },
});
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'results', 'soak.json'), `${JSON.stringify(rows, null, 2)}\n`);
