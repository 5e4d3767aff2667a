import { describe, expect, it } from 'vitest';
import type { Conversation } from '@contract';
import { LiveConversation } from '../../../src-main/core/agent/live-conversation';
import { withWorkspaceCell } from '../../../src-main/core/agent/subagents/workspace-cell-lock';

// Sub-agents' cells take turns on their shared workspace (docs/agent.md#sub-agents): one cell between
// its two checkpoints at a time. What comes before a cell's turn (its session's start) runs outside
// that: it held every other sub-agent's cells up while the session started (issue 29's bench).

const subagent = (id: string): LiveConversation => {
  const live = new LiveConversation({ id, workspace: '/tmp/oi-lock-ws', items: [] } as unknown as Conversation);
  live.subagent = { name: id, spentUsd: () => 0, modelCalls: 15, mayWrite: true };
  return live;
};

describe('the workspace cell lock', () => {
  it('starts a waiting sub-agent’s session while another’s cell holds the workspace, but not its cell', async () => {
    const order: string[] = [];
    let finishA!: () => void;
    const aHolds = new Promise<void>((resolve) => (finishA = resolve));
    let aStarted!: () => void;
    const aRunning = new Promise<void>((resolve) => (aStarted = resolve));
    const a = withWorkspaceCell(subagent('a'), async () => {
      order.push('a cell starts');
      aStarted();
      await aHolds;
      order.push('a cell ends');
    });
    await aRunning;
    let bPrepared!: () => void;
    const bReady = new Promise<void>((resolve) => (bPrepared = resolve));
    const b = withWorkspaceCell(
      subagent('b'),
      async () => void order.push('b cell runs'),
      async () => {
        order.push('b session starts');
        bPrepared();
      },
    );
    await bReady;
    // b's session started while a's cell held the workspace; b's cell waits for it.
    expect(order).toEqual(['a cell starts', 'b session starts']);
    finishA();
    await Promise.all([a, b]);
    expect(order).toEqual(['a cell starts', 'b session starts', 'a cell ends', 'b cell runs']);
  });
});
