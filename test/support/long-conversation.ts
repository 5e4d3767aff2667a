import type { ConversationItem } from '@contract';

/**
 * A conversation of `count` items in the shapes a real one has: questions, markdown answers with code
 * blocks, code cells with output, and the odd notice. Used by the long-conversation test and the bench.
 */
export function longConversationItems(count: number): ConversationItem[] {
  const items: ConversationItem[] = [];
  const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
  for (let i = 0; items.length < count; i++) {
    const n = String(i).padStart(4, '0');
    const step = `step-${n}`;
    const round: ConversationItem[] = [
      { kind: 'user', id: `u-${n}`, text: `Question ${i}: summarise data set ${i} and plot its trend.`, attachments: [], createdAt: at },
      {
        kind: 'assistant',
        id: `a-${n}`,
        step,
        text: `Answer ${i}. Let me look at **set ${i}** first:\n\n\`\`\`python\nimport statistics\nprint(statistics.mean([${i}, ${i + 1}, ${i + 2}]))\n\`\`\`\n\n- rows: ${i * 10}\n- mean: ${i + 1}`,
        thinking: [],
        interrupted: false,
        createdAt: at,
      },
      {
        kind: 'cell',
        id: `c-${n}`,
        step,
        toolCallId: `call-${n}`,
        language: i % 2 ? 'python' : 'shell',
        code: i % 2 ? `values = list(range(${i}))\nprint(sum(values))` : `ls -la data-${i}\nwc -l data-${i}/*.csv`,
        status: 'done',
        approval: 'user',
        outputs: [{ output_type: 'stream', name: 'stdout', text: `line 1 of run ${i}\nline 2 of run ${i}\n\u001b[32mok\u001b[0m\n` }],
        exitCode: 0,
        durationMs: 120 + i,
        executionCount: i + 1,
        startedAt: at,
        limits: { timeoutMs: 120_000, memoryMb: 4096, cpuSeconds: null, maxProcesses: 512, sandbox: null },
        resultForModel: `line 1 of run ${i}`,
      },
    ];
    if (i % 25 === 24) round.push({ kind: 'notice', id: `n-${n}`, level: 'info', text: `Checkpoint ${i}.`, createdAt: at });
    items.push(...round);
  }
  return items.slice(0, count);
}
