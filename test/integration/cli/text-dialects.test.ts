import { describe, expect, it } from 'vitest';
import { writeCall } from '../../../src-main/core/llm/text-call-dialects';
import { jsonEvents, runAutoJson, useCliRun } from '../../support/cli-run';

// `oi -m --json` against local models: a tool call written as text in each dialect runs, and Ollama is
// spoken to through its native API.

const cli = useCliRun();

const ARGS = JSON.stringify({ language: 'shell', code: 'echo cli-dialect-$((6 * 7))' });
const replies = {
  hermes: writeCall('hermes', { name: 'execute', args: ARGS }),
  llama: `{"name": "execute", "parameters": ${ARGS}}`,
  mistral: writeCall('mistral', { name: 'execute', args: ARGS }),
  deepseek: writeCall('deepseek', { name: 'execute', args: ARGS }),
  json: `{"name": "execute", "arguments": ${ARGS}}`,
};

describe('oi -m --json with local models', () => {
  for (const [dialect, reply] of Object.entries(replies)) {
    it(`runs a ${dialect} call written as text`, async () => {
      const { llm, dir } = await cli.start('oi-cli-dialect-', { chunkSize: 5 });
      llm.enqueue({ kind: 'text', text: reply }, { kind: 'text', text: 'It printed 42.' });
      const result = await runAutoJson(llm, dir, ['--provider', 'openai-compatible', '--model', 'local-model'], 'multiply');
      expect(result.code).toBe(0);
      const done = jsonEvents(result.stdout).find((e) => e.name === 'cell.done');
      expect(done?.name === 'cell.done' && done.payload.cell).toMatchObject({ status: 'done', callDialect: dialect });
      expect(done?.name === 'cell.done' && done.payload.cell.resultForModel).toContain('cli-dialect-42');
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
