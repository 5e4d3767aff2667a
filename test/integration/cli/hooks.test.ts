import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../../fixtures/llm-server';
import { cliEnv, runOi, tempDir } from '../../support/cli-process';

// `oi` runs the person's hooks from <data folder>/hooks.json like the app (the same core), and prints
// what they did as notices: a refusal with its reason, a hook that hung and was stopped.

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/hooks');

let llm: ScriptedLlm | null = null;
let data: ReturnType<typeof tempDir> | null = null;
afterEach(async () => {
  await llm?.close();
  data?.remove();
  llm = null;
  data = null;
});

describe('oi -m with hooks in the data folder', () => {
  it('prints a refusal and a hook that hung, never runs the refused cell, and finishes the turn', async () => {
    llm = await startScriptedLlm();
    data = tempDir('oi-cli-hooks-');
    const workspace = path.join(data.dir, 'ws');
    mkdirSync(workspace);
    const pidFile = path.join(data.dir, 'hang.pid');
    writeFileSync(
      path.join(data.dir, 'hooks.json'),
      JSON.stringify({
        hooks: {
          beforeCell: [{ command: `/bin/bash '${path.join(FIXTURES, 'refuse.sh')}'`, timeoutSeconds: 60 }],
          afterCell: [{ command: `/usr/bin/python3 '${path.join(FIXTURES, 'hang.py')}' '${pidFile}'`, timeoutSeconds: 2 }],
        },
      }),
    );
    llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_1', name: 'execute', arguments: { language: 'shell', code: 'touch forbidden-marker' } }] },
      { kind: 'text', text: 'The hook refused it.' },
    );
    const args = ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl];
    const result = await runOi([...args, '--workspace', workspace, '--auto-run', '-m', 'make the file'], cliEnv(data.dir));

    const printed = `${result.stdout}\n${result.stderr}`;
    expect(result.code).toBe(0);
    expect(printed).toContain('refused to run the cell: files named forbidden are off limits in this project');
    expect(printed).toMatch(/The afterCell hook ".*hang\.py.*" \(.*hooks\.json\) did not answer within 2 s and was stopped/);
    expect(printed).toContain('The hook refused it.');
    expect(existsSync(path.join(workspace, 'forbidden-marker'))).toBe(false);
  });
});
