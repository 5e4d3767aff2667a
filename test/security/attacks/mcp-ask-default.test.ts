import { describe, expect, it } from 'vitest';
import type { CellItem } from '@contract';
import type { AgentHarness } from '../../support/agent-harness';
import { useAgentHarness } from '../../support/use-agent-harness';
import { uiStdio } from '../../support/mcp-servers';

// Issue 24, finding 6: the MCP "ask" default was held only by tests that wait for the approval event,
// so without it they time out instead of failing. A server configured with no choice for its tools
// (test/fixtures/mcp/ui-server.mjs, the official SDK over stdio): its `record` tool is not marked
// read-only, so a call asks first. The test polls until the cell has left "streaming" (whatever it
// became), then asserts it is waiting and that the server counted no call; its read-only `recorded`
// tool, called straight on the app's own client, gives the count.

const startHarness = useAgentHarness();

async function recordCalls(harness: AgentHarness): Promise<string> {
  const client = await harness.mcp.clientOf('ui');
  const result = await client.callTool({ name: 'recorded', arguments: {} });
  return JSON.stringify(result.content);
}

async function cellOf(harness: AgentHarness, id: string): Promise<CellItem | null> {
  return (await harness.agent.snapshot(id)).items.find((i): i is CellItem => i.kind === 'cell') ?? null;
}

/** A turn whose model calls `record`; resolves once its cell is no longer streaming (asked, or already run). */
async function proposeRecord(): Promise<{ h: AgentHarness; id: string; sent: Promise<void>; cell: CellItem | null }> {
  const harness = await startHarness({ settings: { autoRun: false, mcpServers: { ui: uiStdio() } } });
  harness.llm.enqueue(
    { kind: 'tool', calls: [{ id: 'call_rec', name: 'mcp__ui__record', arguments: {} }] },
    { kind: 'text', text: 'Done.' },
  );
  const id = await harness.newConversation();
  const sent = harness.send(id, 'record it');
  await expect.poll(async () => (await cellOf(harness, id))?.status ?? 'streaming', { timeout: 60_000 }).not.toBe('streaming');
  return { h: harness, id, sent, cell: await cellOf(harness, id) };
}

describe('an MCP tool of a server configured without a choice', () => {
  it('asks before the call, and the server sees no call until the answer; declined, none at all', async () => {
    const { h, id, sent, cell } = await proposeRecord();
    expect(cell).toMatchObject({ status: 'awaiting-approval', language: 'mcp:ui/record' });
    expect(await recordCalls(h)).toContain('record was called 0 times');

    h.agent.skip(id, cell!.id);
    await sent;
    expect(await cellOf(h, id)).toMatchObject({ status: 'skipped' });
    expect(await recordCalls(h)).toContain('record was called 0 times');
  });

  it('twin: approved, the same call reaches the server (the count above can move)', async () => {
    const { h, id, sent, cell } = await proposeRecord();
    expect(cell?.status).toBe('awaiting-approval');
    h.agent.approve(id, cell!.id, null, false);
    await sent;
    expect(await cellOf(h, id)).toMatchObject({ status: 'done', approval: 'user' });
    expect(await recordCalls(h)).toContain('record was called 1 times');
  });
});
