import { describe, expect, it } from 'vitest';
import { expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { shot } from '../support/ui-harness';

describe('keyboard: Ctrl+, opens Settings, Ctrl+/ and ? list every shortcut', () => {
  // The tests share one app and page, each in a new conversation of its own (ui-fixture.ts's 'shared': a
  // test that leaves anything changed hands the next a fresh app), so each proves what it did alone.
  const ui = useUiApp({}, { start: 'shared' });

  const dialog = () => ui.page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  const focused = () =>
    ui.page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.tagName ?? null);

  it('opens Settings with Ctrl+,', async () => {
    await ui.page.getByRole('textbox', { name: 'Message' }).focus();
    await ui.page.keyboard.press('Control+,');
    await expect.poll(() => ui.page.getByTestId('settings-screen').count()).toBe(1);
    await expectText(ui.page.getByRole('button', { name: 'Settings', exact: true }), 'Settings');
    expect(await ui.page.getByRole('button', { name: 'Settings', exact: true }).getAttribute('aria-current')).toBe('page');
  });

  it('lists every shortcut with Ctrl+/ or ?, and each listed global one does what the list says', async () => {
    await ui.page.keyboard.press('Control+/');
    await expect.poll(() => dialog().count()).toBe(1);
    const rows = dialog().getByTestId('shortcut-list').locator('tr');
    const listed = (await rows.allTextContents()).join('\n');
    for (const [keys, what] of [
      ['Ctrl+Enter', 'Run the code waiting for approval'],
      ['Ctrl+N', 'New conversation'],
      ['Ctrl+K', 'Search conversations'],
      ['Ctrl+,', 'Open Settings'],
      ['Ctrl+/ or ?', 'Show this list of shortcuts'],
      ['Enter', 'Send the message'],
      ['Shift+Enter', 'New line in the message box'],
      ['Esc', 'Stop the agent'],
    ] as const) {
      expect(listed).toContain(`${keys}${what}`);
    }
    await shot(ui.page, 'ui-shortcuts.png');
    await ui.page.keyboard.press('Escape');
    await expect.poll(() => dialog().count()).toBe(0);

    // "?" is a character in a text field, and the list everywhere else.
    const box = ui.page.getByRole('textbox', { name: 'Message' });
    await box.focus();
    await ui.page.keyboard.type('why?');
    expect(await box.inputValue()).toBe('why?');
    expect(await dialog().count()).toBe(0);
    await box.blur();
    await ui.page.keyboard.press('Shift+Slash');
    await expect.poll(() => dialog().count()).toBe(1);
    await dialog().getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => dialog().count()).toBe(0);

    // The global shortcuts the list names, pressed from the body.
    await ui.page.keyboard.press('Control+k');
    await expect.poll(focused).toBe('Search conversations');
    await ui.page.keyboard.press('Control+,');
    await expect.poll(() => ui.page.getByTestId('settings-screen').count()).toBe(1);
    await ui.page.keyboard.press('Control+n');
    await expect.poll(focused).toBe('Message');
    expect(await ui.page.getByTestId('settings-screen').count()).toBe(0);
  });
});
