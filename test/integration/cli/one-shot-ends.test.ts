import { describe, expect, it, onTestFinished } from 'vitest';
import { startScriptedLlm, type ScriptedLlm, type ScriptedReply } from '../../fixtures/llm-server';
import { cliEnv, runOi, tempDir } from '../../support/cli-process';
import { alive } from '../../support/oi-mcp';

// `oi -m` ends by itself however its turn ends: a model server that fails, drops the stream halfway
// or stops answering must not leave the process (or the code's session) alive. Each turn first runs
// a cell, so the language session, the checkpoints and their change-journal thread are all up when
// the model goes wrong. Nothing here is timed: the process's own exit is what each test waits for
// (vitest's timeout is the bound), and test/support ends it should it never come.

const CELL: ScriptedReply = {
  kind: 'tool',
  calls: [{ id: 'c1', name: 'execute', arguments: { language: 'shell', code: 'echo session-pid=$$' } }],
};

async function oneShot(then: ScriptedReply, whileRunning?: (l: ScriptedLlm) => Promise<void>) {
  const llm = await startScriptedLlm();
  const data = tempDir('oi-ends-');
  onTestFinished(async () => {
    await llm.close();
    data.remove();
  });
  llm.enqueue(CELL, then);
  const flags = ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl];
  // --no-sandbox: the test follows the session by its pid, which the sandbox's PID namespace hides.
  const running = runOi([...flags, '-y', '--no-sandbox', '-m', 'run a cell'], cliEnv(data.dir));
  await whileRunning?.(llm);
  const result = await running;
  const pid = Number(/session-pid=(\d+)/.exec(result.stdout)?.[1]);
  return { ...result, sessionPid: pid };
}

describe('oi -m ends by itself', { timeout: 180_000 }, () => {
  it('when the model server answers the second call with an error', async () => {
    const end = await oneShot({ kind: 'error', status: 500, message: 'the model fell over', headers: { 'x-should-retry': 'false' } });
    expect(end.code).toBe(1);
    expect(end.stderr).toContain('the model fell over');
    expect(end.sessionPid).toBeGreaterThan(0);
    // The code's session went with it.
    await expect.poll(() => alive(end.sessionPid), { timeout: 30_000 }).toBe(false);
  });

  it('when the model server closes the connection halfway through its reply', async () => {
    const end = await oneShot({ kind: 'drop', text: 'Half an answer that never' });
    expect(end.code).toBe(1);
    expect(end.stdout).toContain('Half an answer');
    await expect.poll(() => alive(end.sessionPid), { timeout: 30_000 }).toBe(false);
  });

  it('when the model server stops answering and then goes away', async () => {
    const end = await oneShot({ kind: 'hang' }, async (l) => {
      // The second call is open and hanging (headers sent, no body); then the server is gone.
      await expect.poll(() => l.requests.filter((r) => r.path === '/v1/chat/completions').length, { timeout: 120_000 }).toBe(2);
      await l.close();
    });
    expect(end.code).toBe(1);
    expect(end.stderr).toMatch(/turn ended: error|could not reach|connection/i);
    await expect.poll(() => alive(end.sessionPid), { timeout: 30_000 }).toBe(false);
  });
});
