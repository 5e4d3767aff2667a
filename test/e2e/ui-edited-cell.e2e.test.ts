import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectAttribute, expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { currentConversation, sendMessage, toolResult, shot } from '../support/ui-harness';

describe('"edited by you": code the user changed before it ran', () => {
  const ui = useUiApp({}, { newConversation: true });
  const cells = () => ui.page.getByTestId('cell');

  it('is marked on the cell, in the saved conversation and in the exported notebook; code run as written is not', async () => {
    ui.aut.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_e', name: 'execute', arguments: { language: 'shell', code: 'echo model-wrote-this' } }] },
      { kind: 'tool', calls: [{ id: 'call_k', name: 'execute', arguments: { language: 'shell', code: 'echo kept-as-written' } }] },
      { kind: 'text', text: 'Both ran.' },
    );
    await sendMessage(ui.page, 'Say two things');
    await expectAttribute(cells().first(), 'data-status', 'awaiting-approval');
    await ui.page.getByRole('button', { name: 'Edit', exact: true }).click();
    await ui.page.getByRole('textbox', { name: 'Edit code' }).fill('echo "the-user-wrote-$((40 + 2))"');
    await ui.page.getByRole('button', { name: 'Run edited code' }).click();
    await expectAttribute(cells().first(), 'data-status', 'done', 20_000);
    // The second cell: "Edit", nothing changed, run — it ran as the model wrote it.
    await expectAttribute(cells().nth(1), 'data-status', 'awaiting-approval');
    await ui.page.getByRole('button', { name: 'Edit', exact: true }).click();
    await ui.page.getByRole('button', { name: 'Run edited code' }).click();
    await expectText(ui.page.getByTestId('assistant-message').last(), 'Both ran.', 20_000);

    const edited = cells().first();
    await expectText(edited.getByTestId('edited-by-you'), 'edited by you');
    await expectText(edited.getByTestId('cell-code'), 'the-user-wrote-$((40 + 2))');
    await edited.getByTestId('model-code').locator('summary').click();
    await expectText(edited.getByTestId('model-code'), 'echo model-wrote-this');
    expect(await cells().nth(1).getByTestId('edited-by-you').count()).toBe(0);
    await shot(ui.page, 'ui-edited-by-you.png');
    // The model is told its code was changed, and what ran.
    expect(toolResult(ui.aut.llm, 1, 'call_e')).toMatch(
      /^The user edited your code before running it; this ran instead:\necho "the-user-wrote-\$\(\(40 \+ 2\)\)"\n\n[\s\S]*the-user-wrote-42/,
    );
    expect(toolResult(ui.aut.llm, 2, 'call_k')).not.toContain('edited');

    // The saved conversation.
    const { id } = await currentConversation(ui.aut);
    await ui.aut.app.context.agent.idle(id);
    type SavedCell = { kind: string; code: string; modelCode?: string };
    const saved = JSON.parse(readFileSync(path.join(ui.aut.dataDir, 'conversations', `${id}.json`), 'utf8')) as { items: SavedCell[] };
    const savedCells = saved.items.filter((i) => i.kind === 'cell');
    expect(savedCells.map((c) => [c.code, c.modelCode])).toEqual([
      ['echo "the-user-wrote-$((40 + 2))"', 'echo model-wrote-this'],
      ['echo kept-as-written', undefined],
    ]);

    // The exported notebook's cell metadata.
    const { text } = await ui.aut.app.handlers['notebook.export']({ conversationId: id }, { transport: 'websocket' });
    type NbCell = { cell_type: string; source: string[]; metadata: { oi?: { role: string; editedByUser?: boolean; modelCode?: string } } };
    const code = (JSON.parse(text) as { cells: NbCell[] }).cells.filter((c) => c.metadata.oi?.role === 'code');
    expect(code.map((c) => [c.metadata.oi?.editedByUser, c.metadata.oi?.modelCode])).toEqual([
      [true, 'echo model-wrote-this'],
      [undefined, undefined],
    ]);
    // And back: importing that notebook keeps the mark.
    const { conversation } = await ui.aut.app.handlers['notebook.import'](
      { fileName: 'edited.ipynb', source: { text } },
      { transport: 'websocket' },
    );
    expect(conversation.items.filter((i) => i.kind === 'cell').map((c) => (c.kind === 'cell' ? c.modelCode : null))).toEqual([
      'echo model-wrote-this',
      undefined,
    ]);
    await ui.aut.app.handlers['conversation.delete']({ conversationId: conversation.id }, { transport: 'websocket' });

    // After a reload the mark comes from the saved file.
    await ui.page.reload();
    await ui.page.waitForSelector('body[data-ready="true"]');
    await ui.page.getByRole('button', { name: 'Say two things' }).click();
    await expectText(ui.page.getByTestId('cell').first().getByTestId('edited-by-you'), 'edited by you');
  });
});
