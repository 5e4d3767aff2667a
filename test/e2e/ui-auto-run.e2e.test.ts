import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAttribute, expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { currentConversation, sendMessage, shot } from '../support/ui-harness';

// Issue 11 item 7 / issue 17 finding 9: code that runs without asking is a decision made knowingly,
// seen afterwards, and undone in one click. Turning Auto-run on (top bar, Settings) or "Always run here"
// asks once, naming the sandbox state; a chip above the message box says this conversation runs code
// without asking and turns it off; the empty page says what will happen; the sandbox chip lists what
// is protected and what is not.

const shell = (id: string, code: string) => ({ id, name: 'execute', arguments: { language: 'shell', code } });
// The app under test keeps keys in memory (no OS keychain): the warning names no keychain, which the app
// says it does not have (issue 25 item 9); with a keychain it is named (test/unit/exec/sandbox-gaps.test.ts).
const NO_SANDBOX = 'No sandbox: code will run as you, with access to your files and the network.';

const topSwitch = (page: Page) => page.getByRole('switch', { name: 'Auto-run', exact: true });
const confirmDialog = (page: Page) => page.getByTestId('auto-run-confirm');
const chip = (page: Page) => page.getByTestId('auto-run-chip');

describe('running code without asking: confirmation, chip, copy, sandbox chip', () => {
  const ui = useUiApp({}, { newConversation: true });
  const settings = () => ui.aut.app.context.settings.get();

  it('asks before turning Auto-run on, naming the missing sandbox; the chip and the empty page follow, and one click turns it off', async () => {
    const { page } = ui;
    await expectText(page.getByTestId('empty-how'), 'asks before running it');
    expect(await chip(page).count()).toBe(0);

    // Declined: nothing changes.
    await topSwitch(page).click();
    await expectText(page.getByTestId('auto-run-warning'), NO_SANDBOX);
    await expectText(confirmDialog(page), 'Run code without asking, in every conversation?');
    await expectText(page.getByTestId('auto-run-not-protected'), 'your other programs: it can see them and signal them');
    expect(await page.getByTestId('auto-run-not-protected').innerText()).not.toContain('keychain');
    await shot(page, 'ui-auto-run-confirm-no-sandbox.png');
    await page.getByRole('button', { name: 'Keep asking' }).click();
    await expect.poll(() => confirmDialog(page).count()).toBe(0);
    expect(await topSwitch(page).isChecked()).toBe(false);
    expect(settings().autoRun).toBe(false);
    // Esc keeps asking too.
    await topSwitch(page).click();
    await confirmDialog(page).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => confirmDialog(page).count()).toBe(0);
    expect(settings().autoRun).toBe(false);

    // Confirmed: on, and visible.
    await topSwitch(page).click();
    await page.getByRole('button', { name: 'Run without asking' }).click();
    await expect.poll(() => settings().autoRun).toBe(true);
    await expectText(chip(page), /Code runs without asking · Auto-run is on · no sandbox/);
    await expectText(page.getByTestId('empty-how'), 'runs it without asking (auto-run is on)');
    await shot(page, 'ui-auto-run-chip.png');
    ui.aut.llm.enqueue({ kind: 'tool', calls: [shell('call_1', 'echo ran-unasked')] }, { kind: 'text', text: 'Ran.' });
    await sendMessage(page, 'Go');
    await expectAttribute(page.getByTestId('cell').last(), 'data-status', 'done', 20_000);

    // Back in one click; no confirmation for turning it off.
    await chip(page).getByRole('button', { name: 'Ask before running' }).click();
    await expect.poll(() => settings().autoRun).toBe(false);
    await expect.poll(() => chip(page).count()).toBe(0);
    expect(await confirmDialog(page).count()).toBe(0);
    ui.aut.llm.enqueue({ kind: 'tool', calls: [shell('call_2', 'echo asked-again')] });
    await sendMessage(page, 'Again');
    await expectAttribute(page.getByTestId('cell').last(), 'data-status', 'awaiting-approval');
  });

  it('asks on the Settings screen too', async () => {
    const { page } = ui;
    await page.getByRole('button', { name: 'Settings' }).click();
    const toggle = page.getByRole('switch', { name: 'Auto-run (run code without asking)' });
    await toggle.click();
    await expectText(page.getByTestId('auto-run-warning'), NO_SANDBOX);
    await page.getByRole('button', { name: 'Keep asking' }).click();
    await expect.poll(() => confirmDialog(page).count()).toBe(0);
    expect(await toggle.isChecked()).toBe(false);
    expect(settings().autoRun).toBe(false);
    await toggle.click();
    await page.getByRole('button', { name: 'Run without asking' }).click();
    await expect.poll(() => settings().autoRun).toBe(true);
    await expect.poll(() => toggle.isChecked()).toBe(true);
  });

  it('"Always run here" asks first, shows on this conversation only, and the chip makes it ask again', async () => {
    const { page } = ui;
    ui.aut.llm.enqueue(
      { kind: 'tool', calls: [shell('call_a', 'echo first')] },
      { kind: 'tool', calls: [shell('call_b', 'echo second')] },
      { kind: 'text', text: 'Both ran.' },
    );
    await sendMessage(page, 'Two things');
    const cell = page.getByTestId('cell').last();
    await expectAttribute(cell, 'data-status', 'awaiting-approval');

    // Declined: the cell still waits, nothing was decided.
    await page.getByRole('button', { name: 'Always run here' }).click();
    await expectText(confirmDialog(page), 'Run code without asking in this conversation?');
    await expectText(page.getByTestId('auto-run-warning'), NO_SANDBOX);
    await page.getByRole('button', { name: 'Keep asking' }).click();
    await expect.poll(() => confirmDialog(page).count()).toBe(0);
    expect(await cell.getAttribute('data-status')).toBe('awaiting-approval');
    const { id } = await currentConversation(ui.aut);
    const conv = () => ui.aut.app.handlers['conversation.get']({ conversationId: id }, { transport: 'websocket' });
    expect((await conv()).autoRun).toBe(false);

    await page.getByRole('button', { name: 'Always run here' }).click();
    await page.getByRole('button', { name: 'Run without asking' }).click();
    await expectText(page.getByTestId('assistant-message').last(), 'Both ran.', 20_000);
    await expectText(chip(page), /Code runs without asking · “Always run here” is on · no sandbox/);
    await expect.poll(async () => (await conv()).autoRun).toBe(true);
    await shot(page, 'ui-auto-run-always-here.png');

    // Another conversation asks, and shows no chip.
    await page.getByRole('button', { name: 'New conversation' }).click();
    await expect.poll(() => chip(page).count()).toBe(0);
    await expectText(page.getByTestId('empty-how'), 'asks before running it');
    await page.getByTestId('conversation-list').getByText('Two things').click();
    await expectText(chip(page), '“Always run here” is on');

    // One click back, saved in the conversation: the next cell waits again.
    await chip(page).getByRole('button', { name: 'Ask before running' }).click();
    await expect.poll(async () => (await conv()).autoRun).toBe(false);
    await expect.poll(() => chip(page).count()).toBe(0);
    ui.aut.llm.enqueue({ kind: 'tool', calls: [shell('call_c', 'echo third')] });
    await sendMessage(page, 'Once more');
    await expectAttribute(page.getByTestId('cell').last(), 'data-status', 'awaiting-approval');
  });
});

describe('the sandbox chip and the confirmation with the sandbox on', () => {
  const ui = useUiApp(
    { settings: { sandbox: { enabled: true, chosen: true, allowNetwork: false, extraPaths: [], allowedHosts: [] } } },
    { newConversation: true },
  );

  it('lists what is protected and what is not, and the confirmation names the sandbox', async () => {
    const { page } = ui;
    await expectText(page.getByTestId('sandbox-state'), 'Sandbox on');
    await page.getByTestId('sandbox-state').click();
    const details = page.getByTestId('sandbox-details');
    await expectText(details.getByTestId('sandbox-protected'), 'home folders hidden');
    await expectText(details.getByTestId('sandbox-protected'), 'network off');
    await expectText(details.getByTestId('sandbox-not-protected'), 'the workspace: it can change or delete anything in it');
    expect(await details.getByTestId('sandbox-not-protected').textContent()).not.toContain('keychain');
    await shot(page, 'ui-sandbox-chip-details.png');
    await page.keyboard.press('Escape');
    await expect.poll(() => details.count()).toBe(0);

    await topSwitch(page).click();
    await expectText(page.getByTestId('auto-run-warning'), /^Sandbox on — bubblewrap: system files read-only; .*network off/);
    await expectText(page.getByTestId('auto-run-not-protected'), 'the kernel: this is not a virtual machine');
    await shot(page, 'ui-auto-run-confirm-sandbox.png');
    await page.getByRole('button', { name: 'Run without asking' }).click();
    await expectText(chip(page), /Auto-run is on · in the sandbox/);
  });

  it('with the sandbox turned off, the chip says what the code can reach', async () => {
    const { page } = ui;
    await ui.aut.app.handlers['settings.set']({ sandbox: { enabled: false } }, { transport: 'websocket' });
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await expectText(page.getByTestId('sandbox-state'), 'No sandbox');
    await page.getByTestId('sandbox-state').click();
    await expectText(page.getByTestId('sandbox-details'), NO_SANDBOX);
    await expectText(page.getByTestId('sandbox-not-protected'), 'your files: it can read, change and delete anything your user can');
    expect(await page.getByTestId('sandbox-protected').count()).toBe(0);
  });
});
