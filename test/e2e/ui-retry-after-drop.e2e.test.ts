import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CellItem, Conversation } from '@contract';
import { expectAttribute, expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { currentConversation, sendMessage, type OpenAiBody } from '../support/ui-harness';

// Issue 25, item 1, as a person meets it: they Run cell 1, the model server drops the connection in
// the middle of the next reply, they click Retry. What ran stays on screen with its way back
// ("Rewind files to before this cell…"), the model is asked to go on from it (it gets the run and
// its output, not a bare question to answer from scratch), and once the turn has ended no cell
// shows as streaming, on the page or in the saved conversation.

describe('Retry after the model server dropped mid-turn', () => {
  const ui = useUiApp({}, { newConversation: true });

  const cells = () => ui.page.getByTestId('cell');
  const chatBodies = () => ui.aut.llm.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as OpenAiBody);
  const savedCells = async (): Promise<CellItem[]> => {
    const { id } = await currentConversation(ui.aut);
    const file = JSON.parse(readFileSync(path.join(ui.aut.dataDir, 'conversations', `${id}.json`), 'utf8')) as Conversation;
    return file.items.filter((i): i is CellItem => i.kind === 'cell');
  };
  const statusesOnPage = () => cells().evaluateAll((els) => els.map((el) => el.getAttribute('data-status')));

  it('keeps the cell that ran with its rewind link, continues from it, and leaves no cell streaming', async () => {
    const p = ui.page;
    ui.aut.llm.enqueue(
      {
        kind: 'tool',
        calls: [{ id: 'call_ran', name: 'execute', arguments: { language: 'shell', code: 'echo one > step1.txt; echo step-one-output' } }],
      },
      // Cut while the next code streams: a half-written second cell is on screen when the server goes.
      {
        kind: 'drop',
        text: 'Now the second step.',
        call: { id: 'call_cut', name: 'execute', arguments: '{"language":"shell","code":"echo second > step2' },
      },
    );
    await sendMessage(p, 'Do it in two steps');
    await expectAttribute(cells().first(), 'data-status', 'awaiting-approval');
    await p.getByRole('button', { name: 'Run', exact: true }).click();

    const notice = p.getByTestId('notice').last();
    const retry = notice.getByRole('button', { name: 'Retry' });
    await expect.poll(() => retry.count(), { timeout: 30_000 }).toBe(1);
    const ran = cells().first();
    await expectAttribute(ran, 'data-status', 'done');
    await expectText(ran.getByTestId('rewind-cell'), 'Rewind files to before this cell…');
    // The turn ended: nothing on the page or in the file still says it is being written or run.
    await expect.poll(() => p.getByTestId('working').count()).toBe(0);
    expect(await statusesOnPage()).toEqual(['done', 'interrupted']);
    expect((await savedCells()).map((c) => c.status)).toEqual(['done', 'interrupted']);

    const before = chatBodies().length;
    ui.aut.llm.enqueue({ kind: 'text', text: 'Step one had already run; step two is done too.' });
    await retry.click();
    await expectText(p.getByTestId('assistant-message').last(), 'Step one had already run; step two is done too.');
    await expect.poll(() => p.getByTestId('working').count()).toBe(0);

    // The cell that ran is still there, with its output and its way back; the half-written one is gone.
    await expect.poll(() => statusesOnPage()).toEqual(['done']);
    await expectText(cells().first().getByTestId('terminal'), 'step-one-output');
    await expectText(cells().first().getByTestId('rewind-cell'), 'Rewind files to before this cell…');
    expect((await savedCells()).map((c) => [c.toolCallId, c.status])).toEqual([['call_ran', 'done']]);

    // The model was asked once more, with the run and its output in the history: it goes on from the
    // run instead of being asked the question afresh, and it never sees the dropped half-reply.
    const bodies = chatBodies();
    expect(bodies).toHaveLength(before + 1);
    const messages = bodies.at(-1)?.messages ?? [];
    expect(messages.filter((m) => m.role === 'user')).toHaveLength(1);
    const call = messages.find((m) => m.role === 'assistant' && JSON.stringify(m).includes('call_ran'));
    expect(JSON.stringify(call)).toContain('step1.txt');
    const result = messages.find((m) => m.role === 'tool' && m.tool_call_id === 'call_ran');
    expect(JSON.stringify(result?.content)).toContain('step-one-output');
    expect(JSON.stringify(messages)).not.toContain('echo second');
  });
});
