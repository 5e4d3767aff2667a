import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { sendMessage, shot } from '../support/ui-harness';

const WIDTHS = [800, 1000, 1400, 1920] as const;
const HEIGHT = 760;

/** What must stay reachable in the top bar, whatever the width. */
const TOP_BAR = [
  '[data-testid="model-button"]',
  '.topbar .toggle',
  '[data-testid="sandbox-state"]',
  '[data-testid="kernel-button"]',
  'button[aria-label="Notebook"]',
  '[data-testid="usage"]',
  '.topbar button[aria-label$="the files panel"]',
];

/** Elements that stick out of the window, or are covered where they should be clicked (the element at their centre is another one). */
function hiddenOrCovered(page: Page, selectors: string[]): Promise<string[]> {
  return page.evaluate((list) => {
    const problems: string[] = [];
    for (const selector of list) {
      const el = document.querySelector(selector);
      if (!el) {
        problems.push(`${selector}: missing`);
        continue;
      }
      const r = el.getBoundingClientRect();
      if (r.width < 4 || r.height < 4) problems.push(`${selector}: squashed to ${Math.round(r.width)}×${Math.round(r.height)}`);
      if (r.left < 0 || r.top < 0 || r.right > window.innerWidth + 0.5 || r.bottom > window.innerHeight + 0.5)
        problems.push(
          `${selector}: outside the window (${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)})`,
        );
      const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!at || (!el.contains(at) && !at.contains(el)))
        problems.push(`${selector}: covered by ${at ? `${at.tagName.toLowerCase()}.${at.className}` : 'nothing'}`);
    }
    return problems;
  }, selectors);
}

/** Every element that scrolls sideways or is wider than its box with its overflow visible to scrolling. */
function sidewaysScroll(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    if (document.documentElement.scrollWidth > window.innerWidth + 1)
      found.push(`the page is ${document.documentElement.scrollWidth}px wide`);
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      if (el.closest('pre, .cell-code, .xterm, table, .text-preview, .preview-body, .notebook-preview, .markdown')) continue;
      if (el.scrollLeft > 0) found.push(`${el.tagName.toLowerCase()}.${el.className} is scrolled sideways by ${el.scrollLeft}px`);
      const style = getComputedStyle(el);
      const scrollable =
        style.overflowX === 'auto' ||
        style.overflowX === 'scroll' ||
        (style.overflowX === 'hidden' && (el.classList.contains('main') || el.classList.contains('chat') || el.classList.contains('app')));
      if (scrollable && el.scrollWidth > el.clientWidth + 1)
        found.push(`${el.tagName.toLowerCase()}.${el.className} holds ${el.scrollWidth}px in ${el.clientWidth}px`);
    }
    return found;
  });
}

describe('layout at 800, 1,000, 1,400 and 1,920 px', () => {
  const ui = useUiApp({}, { viewport: { width: 1400, height: HEIGHT } });

  async function seed(): Promise<void> {
    // Twenty-four conversations: more than the list can show.
    const store = ui.aut.app.context.conversations;
    for (let i = 1; i <= 24; i++) {
      const conv = await store.create(`Analysis number ${i} of the quarterly sales figures`);
      await store.save({
        ...conv,
        items: [{ kind: 'user', id: `u${i}`, text: `question ${i}`, attachments: [], createdAt: conv.createdAt }],
      });
    }
    ui.aut.llm.enqueue({
      kind: 'text',
      text:
        'Here is the summary you asked for, with a long line that must wrap rather than push the column sideways: ' + 'word '.repeat(60),
    });
    await ui.page.reload();
    await ui.page.waitForSelector('body[data-ready="true"]');
    await ui.page.getByRole('button', { name: 'New conversation' }).click();
    await sendMessage(ui.page, 'Summarise the figures');
    await expectText(ui.page.getByTestId('assistant-message').last(), 'Here is the summary');
  }

  it('keeps every control in reach, the list scrolling on its own, nothing sideways; the files panel folds into a toggle below 1,100 px', async () => {
    await seed();
    const { page } = ui;
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: HEIGHT });
      const narrow = width < 1100;
      const files = page.getByRole('complementary', { name: 'Workspace' });
      const toggle = page.locator('.topbar button[aria-label$="the files panel"]');
      // Wide: the panel is a column, shown unless the user hid it. Narrow: it waits behind the toggle.
      await expect.poll(() => files.count(), { message: `files panel at ${width}px` }).toBe(narrow ? 0 : 1);
      expect(
        await hiddenOrCovered(page, [
          ...TOP_BAR,
          'nav[aria-label="Screens"] button:nth-child(1)',
          'nav[aria-label="Screens"] button:nth-child(2)',
          'nav[aria-label="Screens"] button:nth-child(3)',
          '.composer textarea',
        ]),
      ).toEqual([]);
      expect(await sidewaysScroll(page)).toEqual([]);
      // The model's name and the usage are shown whole, not cut short with an ellipsis.
      for (const selector of ['[data-testid="model-button"]', '[data-testid="usage"]']) {
        expect(
          await page.locator(selector).evaluate((el) => el.scrollWidth - el.clientWidth),
          `${selector} at ${width}px`,
        ).toBeLessThanOrEqual(1);
      }
      await expectText(page.getByTestId('model-button'), 'gpt-test');
      // The usage gives way part by part (context, then tokens), never cutting a number; the cost stays.
      const parts = await page.getByTestId('usage').evaluate((el) => {
        const box = el.getBoundingClientRect();
        return [...el.querySelectorAll('.usage-part')].map((part) => {
          const r = part.getBoundingClientRect();
          const shown = r.top < box.bottom - 1;
          return { text: part.textContent, shown, whole: !shown || (r.left >= box.left - 1 && r.right <= box.right + 1) };
        });
      });
      expect(
        parts.every((p) => p.whole),
        `usage parts at ${width}px: ${JSON.stringify(parts)}`,
      ).toBe(true);
      expect(parts[0]).toMatchObject({ shown: true, text: expect.stringMatching(/^\$/) as unknown });

      // The conversation list scrolls inside the sidebar; the screen links never move.
      const list = page.getByTestId('conversation-list');
      const nav = page.getByRole('navigation', { name: 'Screens' });
      const navTop = (await nav.boundingBox())?.y;
      expect(await list.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
      await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      await expect.poll(() => list.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
      expect((await nav.boundingBox())?.y).toBe(navTop);
      expect(await page.getByRole('navigation', { name: 'Conversations' }).evaluate((el) => el.scrollTop)).toBe(0);
      await expectText(list.locator('.conv-row').last(), 'Analysis number 1 ');
      await shot(page, `ui-layout-${width}.png`);

      // The notebook menu opens within the window and scrolls nothing sideways.
      await page.getByRole('button', { name: 'Notebook', exact: true }).click();
      const menu = page.getByRole('menu', { name: 'Notebook' });
      await expect.poll(() => menu.count()).toBe(1);
      const box = await menu.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true);
      expect(await sidewaysScroll(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await expect.poll(() => menu.count()).toBe(0);

      // The model picker's panel opens in full, above the chat.
      await page.getByTestId('model-button').click();
      expect(await hiddenOrCovered(page, ['[role="dialog"][aria-label="Choose provider and model"]'])).toEqual([]);
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByRole('dialog', { name: 'Choose provider and model' }).count()).toBe(0);

      if (narrow) {
        await toggle.click();
        await expect.poll(() => files.count()).toBe(1);
        // Over the chat, under the top bar: every top-bar control is still there to click.
        expect(await hiddenOrCovered(page, TOP_BAR)).toEqual([]);
        expect(await sidewaysScroll(page)).toEqual([]);
        const panel = await files.boundingBox();
        expect(panel && panel.x + panel.width <= width + 0.5 && panel.x >= 0).toBe(true);
        await shot(page, `ui-layout-${width}-files.png`);
        await page.keyboard.press('Escape');
        await expect.poll(() => files.count()).toBe(0);
        await toggle.click();
        await expect.poll(() => files.count()).toBe(1);
        await toggle.click();
        await expect.poll(() => files.count()).toBe(0);
      }
    }
  });
});
