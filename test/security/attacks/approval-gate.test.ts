import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CellItem } from '@contract';
import { startAppUnderTest, type AppUnderTest } from '../../support/app-under-test';

// Issue 24, finding 6: the approval gate was held outside the browser only by tests that wait for the
// "awaiting approval" event, so without the gate they time out instead of failing. Here the real app
// core, the scripted model and a real shell: the model proposes a cell that writes a marker file; the
// test polls the saved conversation until the cell has left "streaming" (whatever it became), then
// asserts it is waiting and the marker is not there. Without the gate the cell is already running or
// done at that point, and the assertions fail at once.

const ctx = { transport: 'websocket' } as const;

describe('the approval gate, with auto-run off', () => {
  // An app for each test: a test that fails with its turn still going must not leave it to the next.
  let aut: AppUnderTest;
  beforeEach(async () => {
    aut = await startAppUnderTest({ autoRun: false });
  });
  afterEach(async () => aut?.close());

  /** Starts a turn whose model proposes `touch <marker>`; resolves with the cell once it is no longer streaming. */
  async function propose(marker: string): Promise<{ conversationId: string; cell: () => Promise<CellItem> }> {
    aut.llm.enqueue(
      { kind: 'tool', calls: [{ id: `call_${marker}`, name: 'execute', arguments: { language: 'shell', code: `touch ${marker}` } }] },
      { kind: 'text', text: 'Done.' },
    );
    const conv = await aut.app.handlers['conversation.create']({}, ctx);
    const cell = async (): Promise<CellItem> => {
      const saved = await aut.app.handlers['conversation.get']({ conversationId: conv.id }, ctx);
      const found = saved.items.find((i): i is CellItem => i.kind === 'cell');
      if (!found) throw new Error('no cell yet');
      return found;
    };
    await aut.app.handlers['chat.send']({ conversationId: conv.id, text: `make ${marker}` }, ctx);
    // Any state past streaming ends the wait: awaiting approval (the gate held) or running/done (it did not).
    await expect.poll(async () => (await cell().catch(() => null))?.status ?? 'streaming', { timeout: 60_000 }).not.toBe('streaming');
    return { conversationId: conv.id, cell };
  }

  it('a proposed cell does not run while it awaits approval, and a declined one never runs', async () => {
    const { conversationId, cell } = await propose('gate-declined');
    const marker = path.join((await aut.app.handlers['conversation.get']({ conversationId }, ctx)).workspace, 'gate-declined');
    const waiting = await cell();
    expect(waiting.status).toBe('awaiting-approval');
    expect(existsSync(marker)).toBe(false);

    await aut.app.handlers['cell.skip']({ conversationId, cellId: waiting.id }, ctx);
    await aut.app.context.agent.idle(conversationId);
    const declined = await cell();
    expect(declined.status).toBe('skipped');
    expect(declined.approval).not.toBe('auto');
    expect(existsSync(marker)).toBe(false);
  });

  it('twin: the same cell, approved, writes the marker (the code would run, so its absence above means something)', async () => {
    const { conversationId, cell } = await propose('gate-approved');
    const marker = path.join((await aut.app.handlers['conversation.get']({ conversationId }, ctx)).workspace, 'gate-approved');
    const waiting = await cell();
    expect(waiting.status).toBe('awaiting-approval');
    await aut.app.handlers['cell.approve']({ conversationId, cellId: waiting.id }, ctx);
    await aut.app.context.agent.idle(conversationId);
    expect((await cell()).status).toBe('done');
    expect(existsSync(marker)).toBe(true);
  });
});
