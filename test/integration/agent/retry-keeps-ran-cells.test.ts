import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CellItem, Conversation } from '@contract';
import { useAgentHarness } from '../../support/use-agent-harness';

// Issue 25, item 1: Retry after the model server dropped mid-turn deleted a cell that had already run
// (and its "rewind" link), the model proposed the same code again, and the saved conversation kept a
// cell `streaming` after the turn ended. Whatever ran stays in the record; Retry continues from it;
// no cell is left streaming once a turn ends — in the file and in what the UI is sent.

const startHarness = useAgentHarness();

const cellsOf = (conv: Conversation): CellItem[] => conv.items.filter((i): i is CellItem => i.kind === 'cell');
const UNFINISHED = ['streaming', 'awaiting-approval', 'running'];

describe.each(['openai', 'anthropic'] as const)('Retry after the connection dropped mid-turn, over %s', (protocol) => {
  it('keeps the cell that ran, continues from it, and leaves no cell streaming', async () => {
    const h = await startHarness({ protocol, settings: { autoRun: true } });
    h.llm.enqueue(
      {
        kind: 'tool',
        calls: [{ id: 'call_ran', name: 'execute', arguments: { language: 'shell', code: 'echo ran > ran.txt; echo step one' } }],
      },
      // The server goes away in the middle of the next reply, after some of it was streamed (a drop
      // after the first token is not retried: what was shown cannot be taken back).
      { kind: 'drop', text: 'Now the second step:\n```shell\necho sec' },
    );
    const id = await h.newConversation();
    await h.send(id, 'do two steps');
    expect(h.payloads('turn.end').at(-1)?.reason).toBe('error');

    const after = await h.agent.snapshot(id);
    const ran = cellsOf(after).find((c) => c.toolCallId === 'call_ran');
    expect(ran?.status).toBe('done');
    // Nothing is left unfinished once the turn ended: not in memory, not in the file.
    expect(cellsOf(after).filter((c) => UNFINISHED.includes(c.status))).toEqual([]);
    const file = JSON.parse(readFileSync(path.join(h.dataDir, 'conversations', `${id}.json`), 'utf8')) as Conversation;
    expect(cellsOf(file).filter((c) => UNFINISHED.includes(c.status))).toEqual([]);

    const requestsBefore = h.bodies().length;
    h.llm.enqueue({ kind: 'text', text: 'Step one had run; all done.' });
    await h.agent.regenerate(id);
    await h.agent.idle(id);
    const retried = await h.agent.snapshot(id);
    // The cell that ran is still there, the same one, with its result.
    expect(cellsOf(retried).find((c) => c.id === ran?.id)).toMatchObject({ status: 'done', toolCallId: 'call_ran' });
    expect(retried.items.at(-1)).toMatchObject({ kind: 'assistant', text: 'Step one had run; all done.' });
    // The model was asked again with the run and its output in its history.
    const body = JSON.stringify(h.bodies()[requestsBefore]);
    expect(body).toContain('call_ran');
    expect(body).toContain('step one');
  });

  it('leaves no cell streaming when the connection drops inside a fenced code block', async () => {
    const h = await startHarness({ protocol, settings: { autoRun: true, toolCalling: 'off' } });
    h.llm.enqueue(
      { kind: 'text', text: 'First:\n```shell\necho ran-fenced\n```\n' },
      { kind: 'drop', text: 'Second:\n```shell\necho half-writ' },
    );
    const id = await h.newConversation();
    await h.send(id, 'two fenced steps');
    const conv = await h.agent.snapshot(id);
    expect(cellsOf(conv).map((c) => c.status)).toEqual(['done', 'interrupted']);
    const file = JSON.parse(readFileSync(path.join(h.dataDir, 'conversations', `${id}.json`), 'utf8')) as Conversation;
    expect(cellsOf(file).map((c) => c.status)).toEqual(['done', 'interrupted']);
    // What the UI was told last about each cell is what the file says.
    const last = new Map(h.payloads('cell.done').map((p) => [p.cell.id, p.status]));
    expect(cellsOf(file).map((c) => last.get(c.id))).toEqual(['done', 'interrupted']);
  });
});
