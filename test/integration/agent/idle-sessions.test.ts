import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CellItem } from '@contract';
import { startAgentHarness, type AgentHarness } from '../../support/agent-harness';
import { Processes } from '../../../src-main/core/exec';

// Sessions of conversations nobody uses are ended after exec.sessionIdleMs (docs/exec.md#idle-sessions):
// real Python runners, their pids watched from outside. The idle time is set short here, and a sweep
// "hours later" is asked for directly (AgentService.sweepIdle(now)) to show what is never ended.
// Every cell prints its runner's pid, so no export re-runs the same in Jupyter (rerunExports: false).

let h: AgentHarness | null = null;
const scratch: string[] = [];
afterEach(async () => {
  await h?.close();
  h = null;
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const python = (id: string, code: string) => ({
  kind: 'tool' as const,
  calls: [{ id, name: 'execute', arguments: { language: 'python', code } }],
});

/** The runner's pid, which the cell printed as `pid=<n>`. */
async function printedPid(harness: AgentHarness, conversationId: string): Promise<number> {
  const payload = await harness.waitFor('cell.terminal', (p) => p.conversationId === conversationId && /pid=\d+/.test(p.data));
  return Number(/pid=(\d+)/.exec(payload.data)?.[1]);
}

const cellOf = (conv: { items: readonly { kind: string }[] }, n: number): CellItem =>
  conv.items.filter((i): i is CellItem => i.kind === 'cell')[n]!;

const HOURS_LATER = 10 * 3600 * 1000;

describe('idle sessions', () => {
  it('ends the runner of a conversation left unused; its next run says the state is gone, and its open copy is released', async () => {
    h = await startAgentHarness({ settings: { autoRun: true, exec: { timeoutMs: 20_000, sessionIdleMs: 300 } }, rerunExports: false });
    h.llm.enqueue(
      python('c1', 'import os\nx = 41\nprint(f"pid={os.getpid()}")'),
      { kind: 'text', text: 'Set x.' },
      python('c2', 'print(x + 1)'),
      { kind: 'text', text: 'It was gone.' },
    );
    const id = await h.newConversation();
    const firstCopy = await h.agent.open(id);
    await h.send(id, 'set x');
    const pid = await printedPid(h, id);
    expect(pid).toBeGreaterThan(0);

    // The sweeper's own timer ends it: nothing here but waiting for the process to be gone.
    await expect.poll(() => Processes.isAlive(pid), { timeout: 30_000, interval: 100 }).toBe(false);
    // Each look opens the conversation, which counts as use: looks further apart than the idle time
    // leave the sweeper room to release the copy between them.
    await expect.poll(async () => (await h!.agent.open(id)) !== firstCopy, { timeout: 30_000, interval: 1000 }).toBe(true);

    const notes: string[] = [];
    const seen = h.events.length;
    await h.send(id, 'print x + 1');
    for (const e of h.events.slice(seen)) if (e.name === 'cell.terminal') notes.push((e.payload as { data: string }).data);
    const conv = await h.agent.snapshot(id);
    const second = cellOf(conv, 1);
    const said =
      /^Note: the previous python session had ended \(it was unused for 0\.3 s, so the app ended it to free memory\); this run started a new one, so earlier state is gone\./;
    // The model, the saved cell the page draws, and the live terminal the page and `oi` print.
    expect(second.resultForModel).toMatch(said);
    expect(second.resultForModel).toContain("NameError: name 'x' is not defined");
    expect(second.outputs[0]).toMatchObject({ output_type: 'stream', name: 'stderr', text: expect.stringMatching(said) });
    expect(notes.join('')).toContain('earlier state is gone');
  });

  it('never ends the sessions of a conversation whose cell is running, and does once it is over', async () => {
    h = await startAgentHarness({ settings: { autoRun: true, exec: { timeoutMs: 60_000, sessionIdleMs: 300 } }, rerunExports: false });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'oi-idle-'));
    scratch.push(dir);
    const go = path.join(dir, 'go');
    // The cell waits for a file the test writes: it runs as long as the test wants.
    const code = `import os, time\nprint(f"pid={os.getpid()}", flush=True)\nwhile not os.path.exists(${JSON.stringify(go)}):\n    time.sleep(0.05)\nprint("went on")`;
    h.llm.enqueue(python('c1', code), { kind: 'text', text: 'Done.' });
    const id = await h.newConversation();
    await h.agent.send(id, 'wait for the file', []);
    const pid = await printedPid(h, id);

    const during = await h.agent.sweepIdle(Date.now() + HOURS_LATER);
    expect(during.ended).not.toContain(id);
    expect(during.released).not.toContain(id);
    expect(Processes.isAlive(pid)).toBe(true);

    writeFileSync(go, '');
    await h.agent.idle(id);
    expect(cellOf(await h.agent.snapshot(id), 0).status).toBe('done');
    const after = await h.agent.sweepIdle(Date.now() + HOURS_LATER);
    expect(after.ended).toContain(id);
    await expect.poll(() => Processes.isAlive(pid), { timeout: 30_000, interval: 100 }).toBe(false);
  });

  it('never ends the sessions of a conversation whose next cell waits for approval', async () => {
    h = await startAgentHarness({ settings: { exec: { timeoutMs: 20_000, sessionIdleMs: 300 } }, rerunExports: false });
    h.llm.enqueue(python('c1', 'import os\ny = 7\nprint(f"pid={os.getpid()}")'), python('c2', 'print(y * 6)'), {
      kind: 'text',
      text: 'Done.',
    });
    const id = await h.newConversation();
    await h.agent.send(id, 'two cells', []);
    const first = await h.waitFor('cell.awaiting-approval', (p) => p.conversationId === id);
    h.agent.approve(id, first.cell.id, null, false);
    const pid = await printedPid(h, id);
    const second = await h.waitFor('cell.awaiting-approval', (p) => p.conversationId === id && p.cell.id !== first.cell.id);

    const waiting = await h.agent.sweepIdle(Date.now() + HOURS_LATER);
    expect(waiting.ended).not.toContain(id);
    expect(Processes.isAlive(pid)).toBe(true);

    h.agent.approve(id, second.cell.id, null, false);
    await h.agent.idle(id);
    // The state survived the wait: the approved cell still sees y.
    expect(cellOf(await h.agent.snapshot(id), 1).resultForModel).toContain('42');
    expect((await h.agent.sweepIdle(Date.now() + HOURS_LATER)).ended).toContain(id);
    await expect.poll(() => Processes.isAlive(pid), { timeout: 30_000, interval: 100 }).toBe(false);
  });

  it('leaves sessions alone when the setting is 0 (never)', async () => {
    h = await startAgentHarness({ settings: { autoRun: true, exec: { timeoutMs: 20_000, sessionIdleMs: 0 } }, rerunExports: false });
    h.llm.enqueue(python('c1', 'import os\nprint(f"pid={os.getpid()}")'), { kind: 'text', text: 'Done.' });
    const id = await h.newConversation();
    await h.send(id, 'one cell');
    const pid = await printedPid(h, id);
    expect(await h.agent.sweepIdle(Date.now() + HOURS_LATER)).toEqual({ ended: [], released: [] });
    expect(Processes.isAlive(pid)).toBe(true);
  });
});
