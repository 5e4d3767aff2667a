import path from 'node:path';
import type { AnyEvent } from '@contract';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../../fixtures/llm-server';
import { cliEnv, runOi, tempDir } from '../../support/cli-process';

// `oi -m --json` with a local model nobody has probed, which answers as classic Open Interpreter's
// models do: prose and a plain ```python block, no tool call. The answer itself says it was code.

let llm: ScriptedLlm | null = null;
let data: ReturnType<typeof tempDir> | null = null;
afterEach(async () => {
  await llm?.close();
  data?.remove();
  llm = null;
  data = null;
});

const REPLY = 'I will compute it.\n\n```python\nprint(6 * 7)\n```\n\nThat prints the product.';

const events = (stdout: string): AnyEvent[] =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as AnyEvent);

describe.each(['ollama', 'openai-compatible'] as const)('oi -m with an unprobed %s model that writes fenced code', (provider) => {
  it('runs the fenced block of an answer without a tool call, before any probe', async () => {
    llm = await startScriptedLlm({ models: ['classic-oi'] });
    data = tempDir('oi-cli-fenced-');
    llm.enqueue({ kind: 'text', text: REPLY }, { kind: 'text', text: 'It printed 42.' });
    const args = ['--provider', provider, '--model', 'classic-oi', '--base-url', llm.openaiBaseUrl];
    const run = ['--workspace', path.join(data.dir, 'ws'), '--auto-run', '--json', '-m', 'multiply 6 by 7'];
    const result = await runOi([...args, ...run], cliEnv(data.dir));

    expect(result.code).toBe(0);
    const all = events(result.stdout);
    const cells = all.flatMap((e) => (e.name === 'cell.done' ? [e.payload.cell] : []));
    expect(cells).toHaveLength(1);
    expect(cells[0]).toMatchObject({ status: 'done', language: 'python', code: 'print(6 * 7)' });
    expect(cells[0]?.resultForModel).toContain('42');
    // The prose before the block and after it are kept as the model's text, the block only in the cell.
    const done = all.flatMap((e) => (e.name === 'assistant.done' ? [e.payload.item.text] : []));
    expect(done.slice(0, 2)).toEqual(['I will compute it.\n\n', '\nThat prints the product.']);
    // The tool was offered (nothing had probed the model), and the answer alone decided. (The app's own
    // tools come with it: the task list, memory while it is on, delegate, schedule_task: docs/agent.md.)
    const turn = llm.requests.filter((r) => String(JSON.stringify(r.body)).includes('multiply 6 by 7'));
    expect(turn).toHaveLength(2);
    expect((turn[0]?.body as { tools?: { function: { name: string } }[] }).tools?.map((t) => t.function.name)).toEqual([
      'execute',
      'update_tasks',
      'save_memory',
      'delegate',
      'schedule_task',
    ]);
  });
});
