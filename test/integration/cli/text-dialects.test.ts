import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCall } from '../../../src-main/core/llm/text-call-dialects';
import { startScriptedLlm, type ScriptedLlm } from '../../fixtures/llm-server';
import { tempDir } from '../../support/cli-process';
import { doneCells, jsonEvents, runAutoJson, useCliRun } from '../../support/cli-run';

// `oi -m --json` against local models: a tool call written as text in each dialect runs, and Ollama is
// spoken to through its native API.

const cli = useCliRun();

const ARGS = (dialect: string) => JSON.stringify({ language: 'shell', code: `echo cli-${dialect}-$((6 * 7))` });
const replies: Record<string, (args: string) => string> = {
  hermes: (args) => writeCall('hermes', { name: 'execute', args }),
  llama: (args) => `{"name": "execute", "parameters": ${args}}`,
  mistral: (args) => writeCall('mistral', { name: 'execute', args }),
  deepseek: (args) => writeCall('deepseek', { name: 'execute', args }),
  json: (args) => `{"name": "execute", "arguments": ${args}}`,
};

describe('oi -m --json with local models', () => {
  // One `oi -m` turn of five steps, each reply a call in another dialect, instead of an `oi` per
  // dialect (issue 36: each start costs ~1.5 CPU-seconds). Each reply is read on its own (the parser
  // keeps nothing from one model reply to the next), and each cell's command prints its dialect's
  // name, so a cell is matched to the reply it came from, not to its place in the turn.
  let llm: ScriptedLlm;
  const folder = tempDir('oi-cli-dialect-');
  let cells: ReturnType<typeof doneCells> = [];
  let code = -1;
  let stderr = '';
  beforeAll(async () => {
    llm = await startScriptedLlm({ chunkSize: 5 });
    llm.enqueue(...Object.entries(replies).map(([dialect, reply]) => ({ kind: 'text' as const, text: reply(ARGS(dialect)) })), {
      kind: 'text',
      text: 'It printed 42 five times.',
    });
    const result = await runAutoJson(llm, folder.dir, ['--provider', 'openai-compatible', '--model', 'local-model'], 'multiply');
    ({ code, stderr } = result);
    cells = doneCells(jsonEvents(result.stdout));
  });
  afterAll(async () => {
    await llm?.close();
    folder.remove();
  });

  for (const dialect of Object.keys(replies)) {
    it(`runs a ${dialect} call written as text`, () => {
      expect(code, stderr).toBe(0);
      const cell = cells.find((c) => c.resultForModel?.includes(`cli-${dialect}-42`));
      expect(cell).toMatchObject({ status: 'done', callDialect: dialect });
    });
  }

  it('talks to Ollama over /api/chat', async () => {
    const { llm, dir } = await cli.start('oi-cli-ollama-', { models: ['qwen2.5-coder:7b'] });
    llm.enqueue(
      { kind: 'tool', calls: [{ name: 'execute', arguments: { language: 'shell', code: 'echo via-ollama' } }] },
      { kind: 'text', text: 'Done.' },
    );
    const result = await runAutoJson(llm, dir, ['--provider', 'ollama', '--model', 'qwen2.5-coder:7b'], 'go');
    expect(result.code).toBe(0);
    expect(llm.requests.filter((r) => r.path === '/api/chat')).toHaveLength(2);
    expect(JSON.stringify(llm.requests.at(-1)?.body)).toContain('via-ollama');
  });
});
