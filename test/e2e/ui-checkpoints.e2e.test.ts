import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { currentConversation, sendMessage, shot } from '../support/ui-harness';
import { executeThenSay } from '../support/scripted-replies';

// Checkpoints from the user's side: a cell that changes files says so ("2 files changed"), opens to
// the list and a text diff, and rewinds the files to before it — asking first, and again when a file
// was changed outside the app since.

describe('checkpoints in the UI', () => {
  const ui = useUiApp({ settings: { autoRun: true } }, { newConversation: true });

  let calls = 0;
  /** A turn in which the model runs `code` in the shell, then says `reply`, shown before this returns. */
  async function shellTurn(message: string, code: string, reply: string): Promise<void> {
    ui.aut.llm.enqueue(...executeThenSay({ id: `call_${++calls}`, language: 'shell', code }, reply));
    await sendMessage(ui.page, message);
    await expectText(ui.page.getByText(reply), reply);
  }

  it('shows what a cell changed with its diff, and rewinds it after confirming', async () => {
    const p = ui.page;
    await shellTurn('write two files', 'printf "one\\ntwo\\n" > notes.txt && echo data > extra.csv', 'Wrote them.');
    await shellTurn('change them', 'printf "one\\nTWO\\nthree\\n" > notes.txt && rm extra.csv', 'Changed them.');

    const { workspace } = await currentConversation(ui.aut);
    const second = p.getByTestId('cell').nth(1);
    const changes = second.getByTestId('cell-changes');
    await expectText(changes, '2 files changed');
    await changes.getByRole('button', { name: '2 files changed' }).click();
    const list = changes.getByRole('list', { name: 'Changed files' });
    await expectText(list, /modified notes\.txt/);
    await expectText(list, /deleted extra\.csv/);
    await expectText(list.getByTestId('file-diff').filter({ hasText: 'TWO' }), /-two\s+\+TWO\s+\+three/);
    await shot(p, 'checkpoints-diff.png', { fullPage: true });

    // The user edits a file outside the app, then rewinds the second cell: asked twice in the app's own
    // dialog (no browser pop-up), the edit named. Cancel first: nothing changes.
    writeFileSync(path.join(workspace, 'notes.txt'), 'edited by the user\n');
    const popups: string[] = [];
    p.on('dialog', (dialog) => {
      popups.push(dialog.message());
      void dialog.dismiss();
    });
    const dialog = p.getByTestId('rewind-dialog');
    await changes.getByTestId('rewind-cell').click();
    await expectText(dialog, /Rewind the files\?/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(readFileSync(path.join(workspace, 'notes.txt'), 'utf8')).toBe('edited by the user\n');
    await changes.getByTestId('rewind-cell').click();
    await dialog.getByRole('button', { name: 'Rewind files' }).click();
    await expectText(dialog.getByRole('list', { name: 'Changed outside the app' }), /notes\.txt/);
    await shot(p, 'checkpoints-rewind-dialog.png');
    await dialog.getByRole('button', { name: 'Rewind anyway' }).click();
    await expect
      .poll(() => (existsSync(path.join(workspace, 'extra.csv')) ? readFileSync(path.join(workspace, 'notes.txt'), 'utf8') : null))
      .toBe('one\ntwo\n');
    expect(popups).toEqual([]);
    await expectText(p.getByText(/Files rewound to before that run/), /paths put back/);
    await shot(p, 'checkpoints-rewound.png', { fullPage: true });
  });
});
