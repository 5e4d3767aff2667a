import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAttribute } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { sendMessage, shot } from '../support/ui-harness';
import { shownCode, type ShownCode } from '../support/wrapped-code';

// Issue 25, item 2: the approval card showed a long line unwrapped in a box narrower than it, its tail
// out of sight when the person clicked Run. Each line now wraps at the card's width, and each row a line
// wraps onto starts with a mark (CodeLines.tsx). Measured in real Chromium from each character's box.

/** One line of about 1,800 px in the cell's 12.5 px monospace: words, then a URL with no place to break. */
const LONG =
  `printf '%s\\n' ${'the whole command must be seen before it runs '.repeat(2)}` +
  `https://example.invalid/${'x'.repeat(80)} && echo TAIL-END-OF-COMMAND`;
const CODE = `echo short line\n${LONG}\necho last`;

/** Waits until the marks follow the layout (they are set when a line's height changes), then reads it. */
async function settledLayout(code: Locator, box: Locator): Promise<ShownCode> {
  const unmarked = async () => (await shownCode(code, box)).lines.filter((l) => l.marks !== l.rows - 1);
  await expect.poll(unmarked, { timeout: 10_000 }).toEqual([]);
  return shownCode(code, box);
}

/** Everything the person must see before deciding: every character inside the box, wrapped rows marked, short lines not. */
function expectWholeAndMarked(shown: ShownCode, code: string): void {
  expect(shown.longestUnwrapped, 'the long line, unwrapped, is wider than the box').toBeGreaterThan(1_500);
  expect(shown.outside).toEqual([]);
  expect(shown.sidewaysOverflow).toBeLessThanOrEqual(0);
  const [short, long, last] = shown.lines;
  expect(shown.lines).toHaveLength(3);
  expect(short).toEqual({ rows: 1, marks: 0, continuationIndents: [] });
  expect(last).toEqual({ rows: 1, marks: 0, continuationIndents: [] });
  expect(long?.rows).toBeGreaterThan(1);
  expect(long?.marks).toBe((long?.rows ?? 0) - 1);
  // Continuation rows start in from the line's first row: the gutter their mark is drawn in.
  for (const indent of long?.continuationIndents ?? []) expect(indent).toBeGreaterThan(8);
  // The marks are not text: the block's text and a selection of it are the code exactly.
  expect(shown.text).toBe(code);
  expect(shown.selected).toBe(code);
}

async function atWidth(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 860 });
}

describe('long code in an approval card: wrapped, every wrapped row marked', () => {
  // The tests share one app and page, each in a new conversation of its own (ui-fixture.ts's 'shared': a
  // test that leaves anything changed hands the next a fresh app), so each proves what it did alone.
  const ui = useUiApp({}, { newConversation: true, start: 'shared' });

  it('shows every character of a 1,800 px command inside the cell’s card at 1,400 px and at 800 px; Copy copies the code without marks', async () => {
    const { page } = ui;
    ui.aut.llm.enqueue({ kind: 'tool', calls: [{ id: 'call_long', name: 'execute', arguments: { language: 'shell', code: CODE } }] });
    await sendMessage(page, 'Print something long');
    const cell = page.getByTestId('cell').last();
    await expectAttribute(cell, 'data-status', 'awaiting-approval', 60_000);
    const code = page.getByTestId('cell-code');
    const rows: number[] = [];
    for (const width of [1400, 800]) {
      await atWidth(page, width);
      const shown = await settledLayout(code, cell);
      expectWholeAndMarked(shown, CODE);
      rows.push(shown.lines[1]?.rows ?? 0);
      await shot(page, `ui-approval-wrap-${width}.png`);
    }
    // The narrower window wraps the line onto more rows, and the marks followed.
    expect(rows[1]).toBeGreaterThan(rows[0] ?? 0);

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
    await cell.getByRole('button', { name: 'Copy code' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(CODE);
  });

  it('shows an oi mcp client’s long code the same way in its question card at 800 px', async () => {
    const { page } = ui;
    await atWidth(page, 800);
    const questions = ui.aut.app.context.mcpApprovals;
    const asked = questions.ask(
      {
        client: 'claude-code',
        clientVersion: null,
        kind: 'execute',
        language: 'shell',
        code: CODE,
        path: null,
        content: null,
        contentOmitted: 0,
        workspace: ui.aut.dataDir,
      },
      new AbortController().signal,
    );
    const card = page.getByTestId('mcp-approval');
    await card.waitFor({ state: 'visible', timeout: 15_000 });
    expectWholeAndMarked(await settledLayout(page.getByTestId('mcp-approval-code'), card), CODE);
    await shot(page, 'ui-oi-mcp-approval-wrap.png');
    await card.getByRole('button', { name: 'Deny' }).click();
    expect(await asked).toEqual({ decision: 'deny', how: 'deny' });
  });
});
