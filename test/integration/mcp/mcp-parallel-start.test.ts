import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CellItem } from '@contract';
import { startAgentHarness, type AgentHarness } from '../../support/agent-harness';

// Four real servers (server-everything from npm) behind test/fixtures/mcp/start-together.mjs, which lets
// each one start only once all four have been spawned: started one after another, none of them could.

const TOGETHER = path.resolve(import.meta.dirname, '../../fixtures/mcp/start-together.mjs');
const NAMES = ['one', 'two', 'three', 'four'];

let h: AgentHarness | null = null;
let marks: string | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
  if (marks) fs.rmSync(marks, { recursive: true, force: true });
  marks = null;
});

describe('MCP servers at the first turn', () => {
  it('starts every configured server at once, so the first turn waits for the slowest, not the sum', async () => {
    marks = fs.mkdtempSync(path.join(os.tmpdir(), 'oi-mcp-together-'));
    const dir = marks;
    const servers = Object.fromEntries(
      NAMES.map((name) => [name, { command: process.execPath, args: [TOGETHER, dir, String(NAMES.length), name] }]),
    );
    h = await startAgentHarness({ settings: { autoRun: true, mcpServers: servers } });
    h.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'c1', name: 'mcp__four__get-sum', arguments: { a: 2, b: 40 } }] },
      { kind: 'text', text: 'done' },
    );
    const id = await h.newConversation();
    await h.send(id, 'add');
    const cell = (await h.agent.snapshot(id)).items.find((i): i is CellItem => i.kind === 'cell');
    expect(cell).toMatchObject({ status: 'done', language: 'mcp:four/get-sum' });
    const states = await h.mcp.status();
    expect(states.map((s) => [s.name, s.state, s.lastError])).toEqual(NAMES.map((name) => [name, 'connected', null]));
  });
});
