import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser';
import { expectAttribute, expectText } from '../support/page-expect';
import { currentConversation, newConversation, openApp, sendMessage, SHOTS, startUiApp, toolResult, type UiApp } from './ui-harness';

const shell = (id: string, code: string) => ({ id, name: 'execute', arguments: { language: 'shell', code } });

describe('approving, editing, skipping and stopping code in the chat', () => {
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let browser: Browser;
  let aut: UiApp;
  let page: Page;

  beforeAll(async () => {
    chromium = await launchChromium();
    browser = chromium.browser;
  });
  afterAll(async () => chromium?.close());
  beforeEach(async () => {
    aut = await startUiApp();
    ({ page } = await openApp(browser, aut));
    await newConversation(page);
  });
  afterEach(async () => {
    await page?.close();
    await aut?.close();
  });

  const cell = () => page.getByTestId('cell').last();

  it('runs a full turn: streamed text, code waiting for approval, live output, exit status, limits, the answer', async () => {
    aut.llm.enqueue(
      { kind: 'tool', text: 'I will count the files with **bash**.', calls: [shell('call_1', 'ls -a | wc -l; echo "done counting"')] },
      { kind: 'text', text: 'Here is how:\n\n```python\nprint("highlighted")\n```\n\nThe workspace is *empty*.' },
    );
    await sendMessage(page, 'How many files are in the workspace?');
    await expectAttribute(cell(), 'data-status', 'awaiting-approval');
    await expectText(page.getByTestId('working'), /Waiting for your approval/);
    await expectText(page.getByTestId('cell-code'), 'done counting');
    // Highlighted: the shell builtin is wrapped in a token span.
    expect(await page.getByTestId('cell-code').locator('.tok-builtin').first().textContent()).toBe('ls');

    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expectAttribute(cell(), 'data-status', 'done', 20_000);
    await expectText(page.getByTestId('terminal'), 'done counting');
    await expectText(cell(), /exit 0/);
    await expectText(page.getByTestId('cell-limits'), /timeout 2 min 0 s · memory 4096 MB/);
    const answer = page.getByTestId('assistant-message').last();
    await expectText(answer, 'The workspace is empty.');
    expect(await answer.locator('em').textContent()).toBe('empty');
    expect(await answer.locator('.code-block .tok-builtin').first().textContent()).toBe('print');
    await expect.poll(() => page.getByTestId('working').count()).toBe(0);
    await expectText(page.getByTestId('usage'), /tokens/);
    expect(toolResult(aut.llm, 1, 'call_1')).toContain('done counting');
  });

  it('runs the edited code instead of the model’s when the user edits before running', async () => {
    aut.llm.enqueue({ kind: 'tool', calls: [shell('call_e', 'echo original-code')] }, { kind: 'text', text: 'Noted.' });
    await sendMessage(page, 'Say something');
    await expectAttribute(cell(), 'data-status', 'awaiting-approval');
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByRole('textbox', { name: 'Edit code' }).fill('echo "edited-$((2 + 3))"');
    await page.getByRole('button', { name: 'Run edited code' }).click();
    await expectAttribute(cell(), 'data-status', 'done', 20_000);
    await expectText(page.getByTestId('terminal'), 'edited-5');
    await expectText(page.getByTestId('cell-code'), 'edited-$((2 + 3))');
    await expectText(page.getByTestId('assistant-message').last(), 'Noted.');
    const result = toolResult(aut.llm, 1, 'call_e');
    expect(result).toContain('edited-5');
    expect(result).not.toContain('original-code');
  });

  it('runs nothing and tells the model when the user skips', async () => {
    aut.llm.enqueue({ kind: 'tool', calls: [shell('call_s', 'touch skipped-file')] }, { kind: 'text', text: 'Fine, skipped.' });
    await sendMessage(page, 'Make a file');
    await expectAttribute(cell(), 'data-status', 'awaiting-approval');
    await page.getByRole('button', { name: 'Skip' }).click();
    await expectAttribute(cell(), 'data-status', 'skipped');
    await expectText(page.getByTestId('assistant-message').last(), 'Fine, skipped.');
    expect(toolResult(aut.llm, 1, 'call_s')).toMatch(/declined/);
    const { workspace } = await currentConversation(aut);
    const { existsSync } = await import('node:fs');
    expect(existsSync(path.join(workspace, 'skipped-file'))).toBe(false);
  });

  it('approves the waiting cell with Ctrl+Enter', async () => {
    aut.llm.enqueue({ kind: 'tool', calls: [shell('call_k', 'echo keyboard-approved')] }, { kind: 'text', text: 'Ran it.' });
    await sendMessage(page, 'Run something');
    await expectAttribute(cell(), 'data-status', 'awaiting-approval');
    await page.keyboard.press('Control+Enter');
    await expectAttribute(cell(), 'data-status', 'done', 20_000);
    await expectText(page.getByTestId('terminal'), 'keyboard-approved');
  });

  it('stops one long run with its Stop button, showing the elapsed time while it runs', async () => {
    aut.llm.enqueue({ kind: 'tool', calls: [shell('call_long', 'for i in $(seq 1 600); do echo "tick $i"; sleep 0.1; done')] });
    await sendMessage(page, 'Count slowly');
    await expectAttribute(cell(), 'data-status', 'awaiting-approval');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expectText(page.getByTestId('terminal'), 'tick 12', 20_000);
    await expectText(page.getByTestId('cell-elapsed'), /\d/);
    await expectText(page.getByTestId('working'), /Running shell… \d/);
    await page.getByRole('button', { name: 'Stop this run' }).click();
    await expectAttribute(cell(), 'data-status', 'interrupted', 15_000);
    await expect.poll(() => page.getByTestId('working').count(), { timeout: 10_000 }).toBe(0);
    expect(aut.llm.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(1);
  });

  it('stops the whole turn with Esc during a run', async () => {
    aut.llm.enqueue({ kind: 'tool', calls: [shell('call_esc', 'sleep 30; echo never')] });
    await sendMessage(page, 'Wait a while');
    await expectAttribute(cell(), 'data-status', 'awaiting-approval');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expectAttribute(cell(), 'data-status', 'running');
    await page.locator('body').press('Escape');
    await expectAttribute(cell(), 'data-status', 'interrupted', 15_000);
    await expect.poll(() => page.getByRole('button', { name: 'Stop the agent' }).count(), { timeout: 10_000 }).toBe(0);
  });

  it('runs without asking when auto-run is on, and after "Always run here" in this conversation', async () => {
    await page.getByRole('switch', { name: 'Auto-run' }).check();
    await expect.poll(() => aut.app.context.settings.get().autoRun).toBe(true);
    aut.llm.enqueue({ kind: 'tool', calls: [shell('call_a1', 'echo auto-ran')] }, { kind: 'text', text: 'Auto-ran it.' });
    await sendMessage(page, 'First');
    await expectAttribute(cell(), 'data-status', 'done', 20_000);
    await expectText(cell(), 'auto-run');
    await expectText(page.getByTestId('terminal'), 'auto-ran');
    await page.getByRole('switch', { name: 'Auto-run' }).uncheck();
    await expect.poll(() => aut.app.context.settings.get().autoRun).toBe(false);

    aut.llm.enqueue(
      { kind: 'tool', calls: [shell('call_a2', 'echo asked-once')] },
      { kind: 'tool', calls: [shell('call_a3', 'echo not-asked')] },
      { kind: 'text', text: 'Both ran.' },
    );
    await sendMessage(page, 'Second');
    await expectAttribute(cell(), 'data-status', 'awaiting-approval');
    await page.getByRole('button', { name: 'Always run here' }).click();
    await expectText(page.getByTestId('assistant-message').last(), 'Both ran.', 20_000);
    const cells = page.getByTestId('cell');
    await expectAttribute(cells.last(), 'data-status', 'done');
    await expectText(cells.last().getByTestId('terminal'), 'not-asked');
    await page.screenshot({ path: path.join(SHOTS, 'ui-chat-auto-run.png') });
  });
});
