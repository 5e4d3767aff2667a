import { describe, expect, it } from 'vitest';
import { expectAttribute, expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { newConversation, sendMessage, shot } from '../support/ui-harness';

// Plan mode and the task list in the window (docs/ui.md#plan-mode, #task-list): the composer's switch
// and `/plan`; the model's plan as a card the person edits and approves; the approved plan as the task
// list pinned above the conversation, each step's state updated live; the note of a turn that ended
// with a step open; and all of it still usable in a window 800 px wide.

describe('plan mode in the window', () => {
  const ui = useUiApp({ settings: { autoRun: true } });

  it('switches plan mode, approves an edited plan from its card, and pins the task list above the conversation', async () => {
    const p = ui.page;
    await newConversation(p);
    const toggle = p.getByTestId('plan-switch');
    await toggle.click();
    await expectAttribute(toggle, 'aria-checked', 'true');
    await expectText(p.getByTestId('plan-mode-line'), 'code runs read-only in the sandbox');
    // `/plan` in the message box switches it too, and is not sent to the model.
    const before = ui.aut.llm.requests.length;
    await sendMessage(p, '/plan');
    await expectAttribute(toggle, 'aria-checked', 'false');
    await sendMessage(p, '/plan on');
    await expectAttribute(toggle, 'aria-checked', 'true');
    expect(ui.aut.llm.requests.length).toBe(before);

    ui.aut.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'p1', name: 'propose_plan', arguments: { steps: ['Read data', 'Write report'] } }] },
      { kind: 'tool', calls: [{ id: 't1', name: 'update_tasks', arguments: { action: 'start', ids: [1] } }] },
      { kind: 'tool', calls: [{ id: 't2', name: 'update_tasks', arguments: { action: 'done', ids: [1] } }] },
      { kind: 'tool', calls: [{ id: 't3', name: 'update_tasks', arguments: { action: 'start', ids: [2] } }] },
      { kind: 'text', text: 'Halfway there.' },
    );
    await sendMessage(p, 'Make the report');
    const card = p.getByTestId('plan-card');
    await expectText(card, /Proposed plan\s*· Waiting for you/, 20_000);
    await expectText(card.locator('.plan-steps'), /Read data\s*Write report/);
    await card.getByRole('button', { name: 'Edit' }).click();
    await card.getByRole('textbox', { name: 'Plan steps, one a line' }).fill('Read data\nWrite report.txt');
    await card.getByRole('button', { name: 'Approve edited plan' }).click();

    await expectText(p.getByTestId('assistant-message').last(), 'Halfway there.', 20_000);
    await expectText(card, /Approved · edited by you/);
    await expectAttribute(toggle, 'aria-checked', 'false');
    const list = p.getByTestId('task-list');
    await expectText(list, 'Tasks — 1 of 2 steps done');
    await expectAttribute(list.locator('li').nth(0), 'data-state', 'done');
    await expectText(list.locator('li').nth(1), /Write report\.txt\s*in progress/);
    await expectAttribute(list.locator('li').nth(1), 'data-state', 'active');
    await expectText(p.getByTestId('notice').last(), 'The turn ended with 1 step of the task list still open.');
    // The list is above the conversation, not in it.
    const listBox = await list.boundingBox();
    const cardBox = await card.boundingBox();
    expect(listBox && cardBox && listBox.y < cardBox.y).toBe(true);

    // 800 px wide: the list and the composer's switch stay on screen, nothing wider than the window.
    await p.setViewportSize({ width: 800, height: 700 });
    for (const locator of [list, toggle]) {
      const box = await locator.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 800).toBe(true);
    }
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(800);
    await shot(p, 'ui-plan-800.png');
  });
});
