import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectAttribute, expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { currentConversation, sendMessage, toolResult, shot } from '../support/ui-harness';

const shell = (id: string, code: string) => ({ id, name: 'execute', arguments: { language: 'shell', code } });

describe('approving, editing, skipping and stopping code in the chat', () => {
  // The tests share one app and page, each in a new conversation of its own (ui-fixture.ts's 'shared': a
  // test that leaves anything changed hands the next a fresh app), so each proves what it did alone.
  const ui = useUiApp({}, { newConversation: true, start: 'shared' });

  const cell = () => ui.page.getByTestId('cell').last();

  it('runs a full turn: streamed text, code waiting for approval, live output, exit status, limits, the answer', async () => {
    ui.aut.llm.enqueue(
      { kind: 'tool', text: 'I will count the files with **bash**.', calls: [shell('call_1', 'ls -a | wc -l; echo "done counting"')] },
      { kind: 'text', text: 'Here is how:\n\n```python\nprint("highlighted")\n```\n\nThe workspace is *empty*.' },
    );
    await sendMessage(ui.page, 'How many files are in the workspace?');
    await expectAttribute(cell(), 'data-status', 'awaiting-approval');
    await expectText(ui.page.getByTestId('working'), /Waiting for your approval/);
    await expectText(ui.page.getByTestId('cell-code'), 'done counting');
    // Highlighted: the shell builtin is wrapped in a token span.
    expect(await ui.page.getByTestId('cell-code').locator('.tok-builtin').first().textContent()).toBe('ls');

    await ui.page.getByRole('button', { name: 'Run', exact: true }).click();
    await expectAttribute(cell(), 'data-status', 'done', 20_000);
    await expectText(ui.page.getByTestId('terminal'), 'done counting');
    await expectText(cell(), /exit 0/);
    await expectText(ui.page.getByTestId('cell-limits'), /timeout 2 min 0 s · memory 4096 MB/);
    const answer = ui.page.getByTestId('assistant-message').last();
    await expectText(answer, 'The workspace is empty.');
    expect(await answer.locator('em').textContent()).toBe('empty');
    expect(await answer.locator('.code-block .tok-builtin').first().textContent()).toBe('print');
    await expect.poll(() => ui.page.getByTestId('working').count()).toBe(0);
    await expectText(ui.page.getByTestId('usage'), /tokens/);
    expect(toolResult(ui.aut.llm, 1, 'call_1')).toContain('done counting');
  });

  it('runs the edited code instead of the model’s when the user edits before running', async () => {
    ui.aut.llm.enqueue({ kind: 'tool', calls: [shell('call_e', 'echo original-code')] }, { kind: 'text', text: 'Noted.' });
    await sendMessage(ui.page, 'Say something');
    await expectAttribute(cell(), 'data-status', 'awaiting-approval');
    await ui.page.getByRole('button', { name: 'Edit', exact: true }).click();
    await ui.page.getByRole('textbox', { name: 'Edit code' }).fill('echo "edited-$((2 + 3))"');
    await ui.page.getByRole('button', { name: 'Run edited code' }).click();
    await expectAttribute(cell(), 'data-status', 'done', 20_000);
    await expectText(ui.page.getByTestId('terminal'), 'edited-5');
    await expectText(ui.page.getByTestId('cell-code'), 'edited-$((2 + 3))');
    await expectText(ui.page.getByTestId('assistant-message').last(), 'Noted.');
    const result = toolResult(ui.aut.llm, 1, 'call_e');
    expect(result).toContain('edited-5');
    expect(result).not.toContain('original-code');
  });

  it('runs nothing and tells the model when the user skips', async () => {
    ui.aut.llm.enqueue({ kind: 'tool', calls: [shell('call_s', 'touch skipped-file')] }, { kind: 'text', text: 'Fine, skipped.' });
    await sendMessage(ui.page, 'Make a file');
    await expectAttribute(cell(), 'data-status', 'awaiting-approval');
    await ui.page.getByRole('button', { name: 'Skip' }).click();
    await expectAttribute(cell(), 'data-status', 'skipped');
    await expectText(ui.page.getByTestId('assistant-message').last(), 'Fine, skipped.');
    expect(toolResult(ui.aut.llm, 1, 'call_s')).toMatch(/declined/);
    const { workspace } = await currentConversation(ui.aut);
    const { existsSync } = await import('node:fs');
    expect(existsSync(path.join(workspace, 'skipped-file'))).toBe(false);
  });

  it('approves the waiting cell with Ctrl+Enter', async () => {
    ui.aut.llm.enqueue({ kind: 'tool', calls: [shell('call_k', 'echo keyboard-approved')] }, { kind: 'text', text: 'Ran it.' });
    await sendMessage(ui.page, 'Run something');
    await expectAttribute(cell(), 'data-status', 'awaiting-approval');
    await ui.page.keyboard.press('Control+Enter');
    await expectAttribute(cell(), 'data-status', 'done', 20_000);
    await expectText(ui.page.getByTestId('terminal'), 'keyboard-approved');
  });

  it('stops one long run with its Stop button, showing the elapsed time while it runs; the model goes on', async () => {
    ui.aut.llm.enqueue(
      { kind: 'tool', calls: [shell('call_long', 'for i in $(seq 1 600); do echo "tick $i"; sleep 0.1; done')] },
      { kind: 'text', text: 'You stopped the count; I will not run it again.' },
    );
    await sendMessage(ui.page, 'Count slowly');
    await expectAttribute(cell(), 'data-status', 'awaiting-approval');
    await ui.page.getByRole('button', { name: 'Run', exact: true }).click();
    await expectText(ui.page.getByTestId('terminal'), 'tick 12', 20_000);
    await expectText(ui.page.getByTestId('cell-elapsed'), /\d/);
    await expectText(ui.page.getByTestId('working'), /Running shell… \d/);
    await ui.page.getByRole('button', { name: 'Stop this run' }).click();
    await expectAttribute(cell(), 'data-status', 'interrupted', 15_000);
    // Issue 25, item 9: the app's own note says how the run ended, marked as the app's, not as stderr.
    const note = cell().locator('[data-stream="note"]');
    await expectText(note, 'Interrupted by the user;');
    expect(await cell().locator('[data-stream="stderr"]').count()).toBe(0);
    // Only the run stopped: the turn goes on, and the model hears the user stopped it.
    await expectText(ui.page.getByTestId('assistant-message').last(), 'You stopped the count', 15_000);
    await expect.poll(() => ui.page.getByTestId('working').count(), { timeout: 10_000 }).toBe(0);
    expect(ui.aut.llm.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(2);
    expect(toolResult(ui.aut.llm, 1, 'call_long')).toContain('The user stopped this run (with its Stop button); the turn goes on.');
    await shot(ui.page, 'ui-cell-stop-continues.png');
  });

  it('stops the whole turn with Esc during a run', async () => {
    ui.aut.llm.enqueue({ kind: 'tool', calls: [shell('call_esc', 'sleep 30; echo never')] });
    await sendMessage(ui.page, 'Wait a while');
    await expectAttribute(cell(), 'data-status', 'awaiting-approval');
    await ui.page.getByRole('button', { name: 'Run', exact: true }).click();
    await expectAttribute(cell(), 'data-status', 'running');
    // The test pages ask for reduced motion (ui-harness.ts): the running cell's spinner stands still
    // (a turning one repaints every frame); without that preference it turns.
    const turning = () =>
      cell()
        .locator('.spinner')
        .evaluate((el) => getComputedStyle(el).animationName);
    expect(await turning()).toBe('none');
    await ui.page.emulateMedia({ reducedMotion: 'no-preference' });
    expect(await turning()).toBe('spin');
    await ui.page.locator('body').press('Escape');
    await expectAttribute(cell(), 'data-status', 'interrupted', 15_000);
    await expect.poll(() => ui.page.getByRole('button', { name: 'Stop the agent' }).count(), { timeout: 10_000 }).toBe(0);
  });

  it('runs without asking when auto-run is on, and after "Always run here" in this conversation', async () => {
    await ui.page.getByRole('switch', { name: 'Auto-run' }).click();
    // Turning it on is confirmed (test/e2e/ui-auto-run.e2e.test.ts covers the dialog).
    await ui.page.getByRole('button', { name: 'Run without asking' }).click();
    await expect.poll(() => ui.aut.app.context.settings.get().autoRun).toBe(true);
    ui.aut.llm.enqueue({ kind: 'tool', calls: [shell('call_a1', 'echo auto-ran')] }, { kind: 'text', text: 'Auto-ran it.' });
    await sendMessage(ui.page, 'First');
    await expectAttribute(cell(), 'data-status', 'done', 20_000);
    await expectText(cell(), 'auto-run');
    await expectText(ui.page.getByTestId('terminal'), 'auto-ran');
    await ui.page.getByRole('switch', { name: 'Auto-run' }).uncheck();
    await expect.poll(() => ui.aut.app.context.settings.get().autoRun).toBe(false);

    ui.aut.llm.enqueue(
      { kind: 'tool', calls: [shell('call_a2', 'echo asked-once')] },
      { kind: 'tool', calls: [shell('call_a3', 'echo not-asked')] },
      { kind: 'text', text: 'Both ran.' },
    );
    await sendMessage(ui.page, 'Second');
    await expectAttribute(cell(), 'data-status', 'awaiting-approval');
    await ui.page.getByRole('button', { name: 'Always run here' }).click();
    await ui.page.getByRole('button', { name: 'Run without asking' }).click();
    await expectText(ui.page.getByTestId('assistant-message').last(), 'Both ran.', 20_000);
    const cells = ui.page.getByTestId('cell');
    await expectAttribute(cells.last(), 'data-status', 'done');
    await expectText(cells.last().getByTestId('terminal'), 'not-asked');
    await shot(ui.page, 'ui-chat-auto-run.png');
  });
});
