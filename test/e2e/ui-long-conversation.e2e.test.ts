import { beforeEach, describe, expect, it } from 'vitest';
import { expectText } from '../support/page-expect';
import { longConversationItems } from '../support/long-conversation';
import { useUiApp } from '../support/ui-fixture';

const COUNT = 1000;

describe('a 1,000-message conversation', () => {
  // The page opens in the test, on the conversation already there.
  const ui = useUiApp({}, { openPage: false });
  beforeEach(async () => {
    await ui.aut.app.context.conversations.create('A long conversation', longConversationItems(COUNT));
  });

  /** Scrolls the list to a fraction of its height and waits for the item to be mounted. */
  const scrollTo = async (fraction: number, key: string) => {
    await expect
      .poll(
        () =>
          ui.page.getByTestId('messages').evaluate(
            (el, [f, k]) => {
              el.scrollTop = (el.scrollHeight - el.clientHeight) * Number(f);
              return el.querySelector(`[data-key="${k}"]`) !== null;
            },
            [fraction, key] as const,
          ),
        { timeout: 10_000, interval: 100 },
      )
      .toBe(true);
  };

  it('opens at the end, mounts only what is near the viewport, and scrolls to the start and back', async () => {
    const started = Date.now();
    await ui.open();
    const last = longConversationItems(COUNT).at(-1);
    await expect.poll(() => ui.page.locator(`[data-key="${last?.id}"]`).count(), { timeout: 15_000 }).toBe(1);
    console.log(`[measure] 1,000-message conversation: last item shown ${Date.now() - started} ms after navigation`);

    const mounted = await ui.page.locator('.vlist-item').count();
    const terminals = await ui.page.getByTestId('terminal').count();
    console.log(`[measure] mounted items ${mounted}, terminals ${terminals} (of ${COUNT} items)`);
    expect(mounted).toBeLessThan(80);
    expect(terminals).toBeLessThan(30);

    const t0 = Date.now();
    await scrollTo(0, 'u-0000');
    await expectText(ui.page.locator('[data-key="u-0000"]'), 'Question 0:');
    // Heights are estimates until measured, so "half way" is only roughly round 166 of 333.
    await ui.page.getByTestId('messages').evaluate((el) => (el.scrollTop = (el.scrollHeight - el.clientHeight) / 2));
    await expect
      .poll(async () => {
        const keys = await ui.page.locator('.vlist-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-key') ?? ''));
        return keys.some((k) => {
          const round = Number(k.slice(2));
          return round > 100 && round < 233;
        });
      })
      .toBe(true);
    await scrollTo(1, last?.id ?? '');
    console.log(`[measure] top → middle → end: ${Date.now() - t0} ms`);
    // Polled: just after a jump the list may briefly hold the rows it scrolled past until it has
    // measured them (a busy machine stretches that moment: the app's warm-up runs then too).
    await expect.poll(() => ui.page.locator('.vlist-item').count(), { timeout: 15_000 }).toBeLessThan(80);
  });
});
