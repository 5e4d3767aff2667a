import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL_CHROMIUM_PATH, launchChromium } from '../support/browser';
import { expectText } from '../support/page-expect';
import { watchPageProblems } from '../support/page-problems';
import { sendMessage, startUiApp, type UiApp } from '../support/ui-harness';

// Browser mode's own notification (docs/ui.md#notifications), in the full Chromium: its headless shell,
// which the other end-to-end tests share, answers "denied" to notifications whatever is granted. The
// page's Notification is the browser's, wrapped only to keep each one it makes (title, body, whether
// the browser showed it) where the test can read it and click it as the person would.

const KEEP_NOTIFICATIONS = `(() => {
  const Real = window.Notification;
  const made = (window.__oiNotifications = []);
  window.Notification = class extends Real {
    constructor(title, options) {
      super(title, options);
      const entry = { title, body: options?.body ?? '', shown: false, item: this };
      made.push(entry);
      this.addEventListener('show', () => (entry.shown = true));
    }
  };
})();`;

interface Kept {
  title: string;
  body: string;
  shown: boolean;
}

const kept = (page: Page) =>
  page.evaluate(() =>
    ((window as unknown as { __oiNotifications: Kept[] }).__oiNotifications ?? []).map(({ title, body, shown }) => ({
      title,
      body,
      shown,
    })),
  );

const waitFor = (file: string) => ({
  kind: 'tool' as const,
  calls: [
    {
      id: file,
      name: 'execute',
      arguments: { language: 'shell', code: `touch ${file}.started; while [ ! -e ${file} ]; do sleep 0.1; done; echo ok` },
    },
  ],
});

describe('the browser’s notification in browser mode', () => {
  let aut: UiApp;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let problems: string[];
  /** What the page received over its WebSocket: a turn's end reaches it as a `turn.end` event. */
  const frames: string[] = [];
  const turnEnds = () => frames.filter((f) => f.includes('"turn.end"')).length;

  beforeAll(async () => {
    [aut, chromium] = await Promise.all([startUiApp({ settings: { autoRun: true } }), launchChromium(FULL_CHROMIUM_PATH)]);
    const context = await chromium.browser.newContext({ viewport: { width: 1400, height: 860 } });
    await context.grantPermissions(['notifications'], { origin: new URL(aut.server.launchUrl).origin });
    await context.addInitScript(KEEP_NOTIFICATIONS);
    page = await context.newPage();
    page.on('websocket', (ws) =>
      ws.on('framereceived', (f) => frames.push(typeof f.payload === 'string' ? f.payload : f.payload.toString('utf8'))),
    );
    problems = await watchPageProblems(page);
    await page.goto(aut.server.launchUrl);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await aut?.close();
  });

  it('says nothing of a turn the person watches end; tells one that ends in another conversation, and the click opens it', async () => {
    await page.getByRole('button', { name: 'New conversation' }).click();
    aut.llm.enqueue({ kind: 'text', text: 'Watched to the end.' });
    await sendMessage(page, 'Say something');
    await expectText(page.getByTestId('assistant-message').last(), 'Watched to the end.');
    // The turn's end reached the page while the person looked at it: nothing was shown for it.
    await expect.poll(turnEnds, { timeout: 60_000 }).toBe(1);
    expect(await kept(page)).toEqual([]);

    await page.getByRole('button', { name: 'New conversation' }).click();
    const go = path.join(aut.dataDir, 'go');
    aut.llm.enqueue(waitFor(go), { kind: 'text', text: 'Finished while you looked away.' });
    await sendMessage(page, 'Count the files slowly');
    await expect.poll(() => existsSync(`${go}.started`), { timeout: 60_000 }).toBe(true);
    // The person moves to a new conversation while the turn runs; then it ends.
    await page.getByRole('button', { name: 'New conversation' }).click();
    writeFileSync(go, '');
    await expect
      .poll(() => kept(page), { timeout: 60_000 })
      .toEqual([{ title: 'Count the files slowly', body: 'The turn finished.', shown: true }]);

    // Clicked, it brings the page to that conversation.
    await page.evaluate(() => {
      const [entry] = (window as unknown as { __oiNotifications: Array<{ item: Notification }> }).__oiNotifications;
      entry?.item.dispatchEvent(new Event('click'));
    });
    await expectText(page.getByTestId('assistant-message').last(), 'Finished while you looked away.');
    expect(problems).toEqual([]);
  }, 120_000);
});
