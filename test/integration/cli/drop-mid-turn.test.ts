import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CellItem, Conversation } from '@contract';
import { chatRequests, shellCall, useOiTerminal } from './support/oi-terminal-run';
import { sendAndAnswer } from '../../support/cli-run';

const { start } = useOiTerminal();

// Issue 25, item 1, in the terminal: the person runs cell 1 and the model server drops the connection
// while the next cell streams. The cell that ran stays in the saved conversation, nothing is left
// `streaming`, and %retry (the desktop's Retry) asks the model again with the run and its output in
// its history.

type Message = { role: string; content: unknown; tool_call_id?: string };

function savedCells(dir: string): CellItem[] {
  const [name] = readdirSync(path.join(dir, 'conversations')).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
  const conv = JSON.parse(readFileSync(path.join(dir, 'conversations', name ?? 'none'), 'utf8')) as Conversation;
  return conv.items.filter((i): i is CellItem => i.kind === 'cell');
}

describe('oi after the model server dropped mid-turn', { timeout: 120_000 }, () => {
  it('keeps the cell that ran, leaves no cell streaming, and %retry goes on from it', async () => {
    const { oi, llm, dir } = await start();
    llm.enqueue(shellCall('call_ran', 'echo one > step1.txt; echo step-one-output'), {
      kind: 'drop',
      text: 'Now the second step.',
      call: { id: 'call_cut', name: 'execute', arguments: '{"language":"shell","code":"echo second > step2' },
    });
    await sendAndAnswer(oi, 'Do it in two steps', 'y');
    await oi.expect('step-one-output');
    await oi.expect('the connection to');
    await oi.expect('was cut off');
    await oi.expect('(%retry asks the model again; what ran stays)');
    await oi.expect('> ');
    // The turn is over: the file says what became of each cell; none is still being written.
    expect(savedCells(dir).map((c) => [c.toolCallId, c.status])).toEqual([
      ['call_ran', 'done'],
      ['call_cut', 'interrupted'],
    ]);

    const before = chatRequests(llm).length;
    llm.enqueue({ kind: 'text', text: 'Step one had run; step two is done now.' });
    oi.line('%retry');
    await oi.expect('Step one had run; step two is done now.');
    await oi.expect('> ');
    expect(chatRequests(llm)).toHaveLength(before + 1);
    const messages = (chatRequests(llm).at(-1)?.body as { messages: Message[] }).messages;
    // Asked again with the run and its output in its history, the same question once, the cut-off
    // half of a call gone: the model goes on from what ran instead of proposing it again.
    expect(JSON.stringify(messages.find((m) => m.role === 'tool' && m.tool_call_id === 'call_ran')?.content)).toContain('step-one-output');
    expect(messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['Do it in two steps']);
    expect(JSON.stringify(messages)).not.toContain('call_cut');
    expect(savedCells(dir).map((c) => [c.toolCallId, c.status])).toEqual([['call_ran', 'done']]);
    oi.line('exit');
    expect(await oi.exited).toBe(0);
  });
});
