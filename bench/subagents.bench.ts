// Sub-agents benchmark (issue 29, docs/agent.md#sub-agents): the same 30 shell cells done by one agent,
// and by three sub-agents of 10 cells each that one delegate reply starts, through full turns of the
// real agent (agent harness: real exec engine, official OpenAI SDK) against the scripted model server
// answering each model call after a fixed latency, as a hosted model takes to answer. Reported: the wall
// time ratio (target ≤ 0.5: the sub-agents' model calls overlap, their cells take turns on the
// workspace) and the parent's context after, in tokens of its last call, against the single agent's
// (target ≤ 0.3: the parent reads three bounded answers, not thirty outputs).
// Run: npm run bench -- subagents   (writes bench/results/subagents.json)

import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScriptedReply } from '../test/fixtures/llm-server';
import { startAgentHarness, type AgentHarness } from '../test/support/agent-harness';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const LATENCY_MS = Number(process.env.SUBAGENTS_LATENCY_MS ?? 800);
const NAMES = ['north', 'south', 'west'];
const CELLS_EACH = 10;
/** Checkpoints around each cell, as the app always takes them (SUBAGENTS_CHECKPOINTS=0: without, as runs before session 7 measured). */
const CHECKPOINTS = process.env.SUBAGENTS_CHECKPOINTS !== '0';
/** A cell's output, long enough that thirty of them weigh in a context (as real outputs do). */
const cell = (who: string, i: number): ScriptedReply => ({
  kind: 'tool',
  calls: [{ id: `${who}-${i}`, name: 'execute', arguments: { language: 'shell', code: `seq -f '${who} row %g of the data' 1 40` } }],
});

async function run(scripts: Record<string, ScriptedReply[]>): Promise<{ ms: number; parentContext: number }> {
  let h: AgentHarness | null = null;
  const harness = await startAgentHarness({
    settings: { autoRun: true, subagentsAtOnce: 3 },
    rerunExports: false,
    checkpoints: CHECKPOINTS,
    llm: {
      latencyMs: LATENCY_MS,
      onRequest: ({ body }) => {
        const text = JSON.stringify(body ?? '');
        if (!text.includes('"model"')) return;
        const name = Object.keys(scripts).find((n) => text.includes(`You are the sub-agent \\"${n}\\"`)) ?? 'parent';
        const next = scripts[name]?.shift();
        if (next) h?.llm.enqueue(next);
      },
    },
  });
  h = harness;
  try {
    const id = await harness.newConversation();
    const started = performance.now();
    await harness.send(id, 'Produce the three reports.');
    const ms = performance.now() - started;
    const last = harness
      .payloads('usage.updated')
      .filter((u) => u.conversationId === id)
      .at(-1);
    return { ms, parentContext: last?.contextTokens ?? 0 };
  } finally {
    await harness.close();
  }
}

const single = await run({
  parent: [
    ...NAMES.flatMap((n) => Array.from({ length: CELLS_EACH }, (_, i) => cell(n, i))),
    { kind: 'text', text: 'All three reports done.' },
  ],
});
const split = await run({
  parent: [
    {
      kind: 'tool',
      calls: NAMES.map((n) => ({
        id: `d-${n}`,
        name: 'delegate',
        arguments: { name: n, task: `Print the ${n} rows.`, returns: 'how many rows', write: true },
      })),
    },
    { kind: 'text', text: 'All three reports done.' },
  ],
  ...Object.fromEntries(
    NAMES.map((n) => [
      n,
      [...Array.from({ length: CELLS_EACH }, (_, i) => cell(n, i)), { kind: 'text' as const, text: `${n}: 400 rows.` }],
    ]),
  ),
});

const rows = {
  latencyMs: LATENCY_MS,
  checkpoints: CHECKPOINTS,
  load: os.loadavg()[0],
  singleMs: Math.round(single.ms),
  subagentsMs: Math.round(split.ms),
  wallRatio: Number((split.ms / single.ms).toFixed(3)),
  singleContextTokens: single.parentContext,
  parentContextTokens: split.parentContext,
  contextRatio: Number((split.parentContext / single.parentContext).toFixed(3)),
};
console.table(rows);
console.log(`wall ratio ${rows.wallRatio} (target ≤ 0.5), parent context ratio ${rows.contextRatio} (target ≤ 0.3)`);
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'results', 'subagents.json'), `${JSON.stringify(rows, null, 2)}\n`);
