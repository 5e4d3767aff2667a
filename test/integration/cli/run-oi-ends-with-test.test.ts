import { afterAll, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../../fixtures/llm-server';
import { cliEnv, runOi, tempDir } from '../../support/cli-process';
import { alive } from '../../support/oi-mcp';

// test/support ends what a test started when the test ends, however it ends (test-children.ts). Each
// pair below: a test that stops early — by a failure, by vitest's timeout — while the `oi -m` it
// started provably still runs (its model call hangs on a server that stays up until the file ends),
// then a test that finds that process gone. The tests of a file run in order. The failing ones are
// not retried: vitest would retry an expected failure, and count it flaky.

const llm: Promise<ScriptedLlm> = startScriptedLlm();
const data = tempDir('oi-orphan-');
afterAll(async () => {
  await (await llm).close();
  data.remove();
});

/** Starts `oi -m` whose model call never answers; tells its pid at once. */
async function hangingOi(started: (pid: number) => void): Promise<ScriptedLlm> {
  const server = await llm;
  server.enqueue({ kind: 'hang' });
  void runOi(['--provider', 'openai', '--model', 'gpt-4o', '--base-url', server.openaiBaseUrl, '-m', 'hi'], cliEnv(data.dir), {
    started,
  });
  return server;
}

describe('a test that ends early leaves no oi behind', () => {
  let failed = 0;
  it.fails('(fails while oi waits on its model)', { timeout: 180_000, retry: 0 }, async () => {
    const server = await hangingOi((pid) => (failed = pid));
    // oi is provably still at work: its model call is open (and hangs).
    await expect.poll(() => server.requests.some((r) => r.path === '/v1/chat/completions'), { timeout: 120_000 }).toBe(true);
    expect(alive(failed)).toBe(true);
    throw new Error('this test fails on purpose, with oi still running');
  });
  it('…and its oi is gone', async () => {
    expect(failed).toBeGreaterThan(0);
    await expect.poll(() => alive(failed), { timeout: 30_000 }).toBe(false);
  });

  let timedOut = 0;
  it.fails('(times out while oi starts or waits on its model)', { timeout: 10_000, retry: 0 }, async () => {
    await hangingOi((pid) => (timedOut = pid));
    await new Promise(() => undefined);
  });
  it('…and its oi is gone too', async () => {
    expect(timedOut).toBeGreaterThan(0);
    await expect.poll(() => alive(timedOut), { timeout: 30_000 }).toBe(false);
  });
});
