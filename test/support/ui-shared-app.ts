import path from 'node:path';
import type { Page } from 'playwright-core';
import { SHOTS, newConversation, type UiApp } from './ui-harness';

// The tests of a describe that each need only a conversation of their own share one app and one page
// (ui-fixture.ts's `start: 'shared'`): opening the app's page until it is usable costs about a
// CPU-second in Chromium and the app's start a little less in the test process (CONTRIBUTING.md, the
// cost section), and most end-to-end tests prove what they prove in any fresh conversation. A test
// shares only what the one before it left as it found it; otherwise (it failed, changed a setting,
// left a turn running, a reply queued, a dialog open or the composer in use) the next test gets an app
// and a page of its own, as every test did before.

const TURN_END_MS = 5_000;

/** What a test may not change for the next to share its app: the settings as the app started. */
export function settingsOf(aut: UiApp): string {
  return JSON.stringify(aut.app.context.settings.get());
}

/** Why the app and page cannot be handed to the next test as they are, or null when they can. */
export async function whyNotShared(aut: UiApp, page: Page, baseline: { settings: string }): Promise<string | null> {
  if (settingsOf(aut) !== baseline.settings) return 'the settings changed';
  // A test may end once it has seen what it checks while its turn takes the last scripted reply: a
  // few seconds for that turn to end (an event), not for one waiting on a question.
  const { agent } = aut.app.context;
  const running = (await aut.app.context.conversations.list()).filter((c) => agent.isRunning(c.id));
  if (running.length > 0) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, TURN_END_MS)));
    await Promise.race([Promise.all(running.map((c) => agent.idle(c.id))), bound]);
    clearTimeout(timer);
    if (running.some((c) => agent.isRunning(c.id))) return 'a turn is still running';
  }
  if (aut.llm.pending() > 0) return 'scripted replies are left';
  if ((await page.locator('[role="dialog"], [role="alertdialog"]').count()) > 0) return 'a dialog is open';
  // The composer is the page's, not the conversation's: what a test typed or attached there stays.
  if ((await page.getByTestId('attachment-chip').count()) > 0) return 'the composer holds attachments';
  const box = page.getByRole('textbox', { name: 'Message' });
  if ((await box.count()) !== 1 || (await box.inputValue()) !== '') return 'the message box is not empty';
  return null;
}

/**
 * Hands the app and page to the next test: what the last test recorded is emptied, the permissions it
 * granted taken back, the page's media back to reduced motion (ui-harness.ts's openApp) and its size to
 * the describe's, and a new conversation shown, empty.
 */
export async function handOver(
  aut: UiApp,
  page: Page,
  frames: string[],
  viewport: { width: number; height: number } | null,
): Promise<void> {
  aut.llm.requests.length = 0;
  frames.length = 0;
  await page.context().clearPermissions();
  await page.emulateMedia({ reducedMotion: 'reduce' });
  if (viewport && JSON.stringify(page.viewportSize()) !== JSON.stringify(viewport)) await page.setViewportSize(viewport);
  await page.mouse.move(0, 0);
  await newConversation(page);
  await page
    .getByTestId('chat')
    .locator('[data-testid="user-message"], [data-testid="assistant-message"], [data-testid="cell"]')
    .first()
    .waitFor({ state: 'detached' });
}

/** A picture of the page as a test failed, in test-results/ (the screenshots taken in passing are off by default). */
export async function shotOfFailure(page: Page, testName: string): Promise<void> {
  const name = testName.replace(/[^\w-]+/g, '-').slice(0, 80);
  await page.screenshot({ path: path.join(SHOTS, `failed-${name}.png`) }).catch(() => undefined);
}
