import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveProfile } from '../../../src-main/core/profiles/profile-store';
import { startScriptedLlm, type ScriptedLlm } from '../../fixtures/llm-server';
import { cliEnv, runOi, tempDir } from '../../support/cli-process';

// `oi --profile NAME` (docs/agent.md#profiles): the settings of <data folder>/profiles/NAME.json for
// this run — its model and instructions reach the model's request, its auto-run runs the cell — and a
// name that is not a profile is refused before anything starts, saying which profiles there are. The
// conversation is bound to the profile as the app's Profile menu binds it, so `oi -c` (and the app)
// go on using it, with the run's flags still on top, and Settings' own model unchanged.

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

  it('records the profile on the conversation: oi -c uses it without --profile, flags on top, Settings unchanged', async () => {
    const workspace = path.join(data.dir, 'ws-bound');
    mkdirSync(workspace);
    const marker = 'Write every answer as a haiku (bound profile).';
    saveProfile(data.dir, 'haiku', {
      provider: 'openai',
      model: 'gpt-haiku-1',
      baseUrl: llm.openaiBaseUrl,
      instructions: marker,
      autoRun: false,
    });
    llm.enqueue({ kind: 'text', text: 'First, in seventeen syllables.' });
    const first = await runOi(['--profile', 'haiku', '--workspace', workspace, '-m', 'hello'], cliEnv(data.dir));
    expect(first.code, first.stderr).toBe(0);
    const bound = conversationsIn(data.dir).filter((c) => c.workspace === workspace);
    expect(bound.map((c) => c.profile)).toEqual(['haiku']);

    // Continued without --profile: the profile's instructions still reach the model (read from the
    // profile at the turn); -y goes over the profile's auto-run off, so the cell runs unasked.
    llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_h', name: 'execute', arguments: { language: 'shell', code: 'touch made-under-flag' } }] },
      { kind: 'text', text: 'Done, in haiku.' },
    );
    const before = llm.requests.length;
    const second = await runOi(['-c', '-y', '-m', 'make the file'], cliEnv(data.dir));
    expect(second.code, second.stderr).toBe(0);
    const body = llm.requests[before]?.body as { model: string; messages: Array<{ role: string; content: unknown }> };
    expect(body.model).toBe('gpt-haiku-1');
    expect(JSON.stringify(body.messages.filter((m) => m.role === 'system' || m.role === 'developer'))).toContain(marker);
    expect(existsSync(path.join(workspace, 'made-under-flag'))).toBe(true);
    // A run's profile never reaches the settings file: the app's model for new conversations is its own.
    const settingsFile = path.join(data.dir, 'settings.json');
    expect(existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : '').not.toContain('gpt-haiku-1');
  });
});

function conversationsIn(dataDir: string): Array<{ workspace: string; profile?: string }> {
  const dir = path.join(dataDir, 'conversations');
  return readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .map((n) => JSON.parse(readFileSync(path.join(dir, n), 'utf8')) as { workspace: string; profile?: string });
}
