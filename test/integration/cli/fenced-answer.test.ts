import { describe, expect, it } from 'vitest';
import { doneCells, jsonEvents, runAutoJson, useCliRun } from '../../support/cli-run';

// `oi -m --json` with a local model nobody has probed, which answers as classic Open Interpreter's
// models do: prose and a plain ```python block, no tool call. The answer itself says it was code.

const cli = useCliRun();

const REPLY = 'I will compute it.\n\n```python\nprint(6 * 7)\n```\n\nThat prints the product.';

describe.each(['ollama', 'openai-compatible'] as const)('oi -m with an unprobed %s model that writes fenced code', (provider) => {
  it('runs the fenced block of an answer without a tool call, before any probe', async () => {
    const { llm, dir } = await cli.start('oi-cli-fenced-', { models: ['classic-oi'] });
    llm.enqueue({ kind: 'text', text: REPLY }, { kind: 'text', text: 'It printed 42.' });
    const result = await runAutoJson(llm, dir, ['--provider', provider, '--model', 'classic-oi'], 'multiply 6 by 7');

    expect(result.code).toBe(0);
    const all = jsonEvents(result.stdout);
    const cells = doneCells(all);
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
