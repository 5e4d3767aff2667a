import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Harness, interruptOnceShown, startHarness, stdoutOf } from '../../support/exec-harness';

// Ctrl-C and the JavaScript session beyond the contract every language keeps
// (session-behaviour.test.ts): Node's breakOnSigint left instants around each cell's synchronous
// part where a SIGINT ended the process, and a SIGINT caught as one ended could stop the next cell
// (resources/runners/node/sigint-guard.mjs, docs/exec-protocol.md#interrupt-and-death).

/** Whether SIGINT is waiting to be handled by a process (Linux /proc: SigPnd and ShdPnd). */
async function sigintPending(pid: number): Promise<boolean> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return [...status.matchAll(/^(?:SigPnd|ShdPnd):\s*([0-9a-f]+)$/gm)].some((m) => (BigInt(`0x${m[1]}`) & 2n) !== 0n);
}

describe('javascript sessions and Ctrl-C', () => {
  let h: Harness;
  const run = (code: string, extra?: Parameters<Harness['run']>[2]) => h.run('javascript', code, extra);
  const runnerPid = async () => Number(stdoutOf(await run('console.log(String(process.pid));')).trim());

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  /**
   * Runs `cells` one-line cells while SIGINTs go to the runner as fast as this process can send
   * them, so some land in every instant of a cell's life, those around Node's watchdog included.
   * Each cell either ran or was stopped by a SIGINT inside it, as Ctrl-C does; none died.
   */
  async function throughStorm(pid: number, cells: number): Promise<void> {
    let raining = true;
    let sent = 0;
    const storm = (async () => {
      while (raining) {
        process.kill(pid, 'SIGINT');
        sent++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    try {
      for (let i = 0; i < cells; i++) {
        const result = await run('storm++;');
        if (result.status !== 'done') {
          expect(result.status, `cell ${i}: ${result.forModel}`).toBe('failed');
          expect(result.forModel, `cell ${i}`).toContain('Interrupted: interrupted by SIGINT');
        }
      }
    } finally {
      raining = false;
      await storm;
    }
    expect(sent).toBeGreaterThan(cells);
    await vi.waitFor(async () => expect(await sigintPending(pid)).toBe(false), { timeout: 15_000, interval: 50 });
  }

  it('lives through a Ctrl-C at any moment: between cells, as they start, run and end', async () => {
    const pid = await runnerPid();
    await run('var storm = 0;');
    await throughStorm(pid, 60);
    // The same process, with its state: no run was lost to a SIGINT.
    const after = await run('console.log(`${process.pid} ${typeof storm} ${storm > 0}`);');
    expect(after.status, after.forModel).toBe('done');
    expect(stdoutOf(after)).toBe(`${pid} number true\n`);
  });

  it("calls a cell's own SIGINT listener on an interrupt, and the listener leaves Ctrl-C harmless", async () => {
    await run('var heard = 0;\nvar storm = 0;\nprocess.on("SIGINT", () => { heard++; });');
    const interrupted = await run(
      'console.log("started");\nawait new Promise((resolve) => setTimeout(resolve, 30_000));',
      interruptOnceShown('started'),
    );
    expect(interrupted.status, interrupted.forModel).toBe('interrupted');
    expect(stdoutOf(await run('console.log(`heard ${heard}`);'))).toBe('heard 1\n');
    // Node puts its own handler in for a listener and takes it out again around each cell, which
    // leaves the default action (end the process) for a moment every time.
    const pid = await runnerPid();
    await throughStorm(pid, 30);
    const after = await run('console.log(`${process.pid} ${storm > 0}`);');
    expect(after.status, after.forModel).toBe('done');
    expect(stdoutOf(after)).toBe(`${pid} true\n`);
  });
});
