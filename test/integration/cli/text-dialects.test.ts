import path from 'node:path';
import type { AnyEvent } from '@contract';
import { afterEach, describe, expect, it } from 'vitest';
import { writeCall } from '../../../src-main/core/llm/text-call-dialects';
import { startScriptedLlm, type ScriptedLlm } from '../../fixtures/llm-server';
import { cliEnv, runOi, tempDir } from '../../support/cli-process';

// `oi -m --json` against local models: a tool call written as text in each dialect runs, and Ollama is
// spoken to through its native API.

let llm: ScriptedLlm | null = null;
let data: ReturnType<typeof tempDir> | null = null;
afterEach(async () => {
  await llm?.close();
  data?.remove();
  llm = null;
  data = null;
});

const ARGS = JSON.stringify({ language: 'shell', code: 'echo cli-dialect-$((6 * 7))' });
const replies = {
  hermes: writeCall('hermes', { name: 'execute', args: ARGS }),
  llama: `{"name": "execute", "parameters": ${ARGS}}`,
  mistral: writeCall('mistral', { name: 'execute', args: ARGS }),
  deepseek: writeCall('deepseek', { name: 'execute', args: ARGS }),
  json: `{"name": "execute", "arguments": ${ARGS}}`,
};

function events(stdout: string): AnyEvent[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as AnyEvent);
}

describe('oi -m --json with local models', () => {
  for (const [dialect, reply] of Object.entries(replies)) {
    it(`runs a ${dialect} call written as text`, async () => {
      llm = await startScriptedLlm({ chunkSize: 5 });
      data = tempDir('oi-cli-dialect-');
      llm.enqueue({ kind: 'text', text: reply }, { kind: 'text', text: 'It printed 42.' });
      const args = [
        '--provider',
        'openai-compatible',
        '--model',
        'local-model',
        '--base-url',
        llm.openaiBaseUrl,
        '--workspace',
        path.join(data.dir, 'ws'),
        '--auto-run',
        '--json',
        '-m',
        'multiply',
      ];
      const result = await runOi(args, cliEnv(data.dir));
      expect(result.code).toBe(0);
      const done = events(result.stdout).find((e) => e.name === 'cell.done');
      expect(done?.name === 'cell.done' && done.payload.cell).toMatchObject({ status: 'done', callDialect: dialect });
      expect(done?.name === 'cell.done' && done.payload.cell.resultForModel).toContain('cli-dialect-42');
    });
  }

  it('talks to Ollama over /api/chat', async () => {
    llm = await startScriptedLlm({ models: ['qwen2.5-coder:7b'] });
    data = tempDir('oi-cli-ollama-');
    llm.enqueue(
      { kind: 'tool', calls: [{ name: 'execute', arguments: { language: 'shell', code: 'echo via-ollama' } }] },
      { kind: 'text', text: 'Done.' },
    );
    const args = [
      '--provider',
      'ollama',
      '--model',
      'qwen2.5-coder:7b',
      '--base-url',
      llm.openaiBaseUrl,
      '--workspace',
      path.join(data.dir, 'ws'),
      '--auto-run',
      '--json',
      '-m',
      'go',
    ];
    const result = await runOi(args, cliEnv(data.dir));
    expect(result.code).toBe(0);
    expect(llm.requests.filter((r) => r.path === '/api/chat')).toHaveLength(2);
    expect(JSON.stringify(llm.requests.at(-1)?.body)).toContain('via-ollama');
  });
});
