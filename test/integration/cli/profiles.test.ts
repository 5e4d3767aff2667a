import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveProfile } from '../../../src-main/core/profiles/profile-store';
import { startScriptedLlm, type ScriptedLlm } from '../../fixtures/llm-server';
import { cliEnv, runOi, tempDir } from '../../support/cli-process';

// `oi --profile NAME` (docs/agent.md#profiles): the settings of <data folder>/profiles/NAME.json for
// this run — its model and instructions reach the model's request, its auto-run runs the cell — and a
// name that is not a profile is refused before anything starts, saying which profiles there are.

let llm: ScriptedLlm;
let data: ReturnType<typeof tempDir>;
beforeAll(async () => {
  llm = await startScriptedLlm();
  data = tempDir('oi-cli-profiles-');
});
afterAll(async () => {
  await llm?.close();
  data?.remove();
});

const MARKER = 'Answer like a pirate (profile instructions).';

describe('oi --profile', () => {
  it("runs a turn with the profile's model, instructions and auto-run", async () => {
    const workspace = path.join(data.dir, 'ws');
    mkdirSync(workspace);
    saveProfile(data.dir, 'pirate', {
      provider: 'openai',
      model: 'gpt-pirate-1',
      baseUrl: llm.openaiBaseUrl,
      instructions: MARKER,
      autoRun: true,
    });
    llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_1', name: 'execute', arguments: { language: 'shell', code: 'touch made-by-profile' } }] },
      { kind: 'text', text: 'Arr, done.' },
    );
    const before = llm.requests.length;
    const result = await runOi(['--profile', 'pirate', '--workspace', workspace, '-m', 'make the file'], cliEnv(data.dir));

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Arr, done.');
    const body = llm.requests[before]?.body as { model: string; messages: Array<{ role: string; content: unknown }> };
    expect(body.model).toBe('gpt-pirate-1');
    expect(JSON.stringify(body.messages.filter((m) => m.role === 'system' || m.role === 'developer'))).toContain(MARKER);
    // Auto-run from the profile: the cell ran without a question (there is no terminal to ask at).
    expect(existsSync(path.join(workspace, 'made-by-profile'))).toBe(true);
  });

  it('refuses an unknown profile before anything starts, naming the profiles there are', async () => {
    const before = llm.requests.length;
    const result = await runOi(['--profile', 'nope', '-m', 'hello'], cliEnv(data.dir));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/there is no profile "nope" \(no .*profiles\/nope\.json\); the profiles are: pirate/);
    expect(llm.requests.length).toBe(before);
  });
});
