import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { sendMessage, type OpenAiBody, shot } from '../support/ui-harness';

describe('conversations: made by their first message, renamed in place, found with the matching text, each with its own model', () => {
  const ui = useUiApp({ settingsOnDisk: true });

  const rows = () => ui.page.getByTestId('conversation-list').locator('.conv-row');
  const list = () => ui.aut.app.handlers['conversation.list']({}, { transport: 'websocket' });
  const files = () => readdirSync(path.join(ui.aut.dataDir, 'conversations')).filter((n) => n.endsWith('.json'));
  const lastModel = () =>
    (ui.aut.llm.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)?.body as OpenAiBody | undefined)?.model;

  async function converse(text: string, reply: string): Promise<void> {
    ui.aut.llm.enqueue({ kind: 'text', text: reply });
    await sendMessage(ui.page, text);
    await expectText(ui.page.getByTestId('assistant-message').last(), reply);
  }

  it('leaves no empty conversation behind New conversation or Ctrl+N, even after a reload', async () => {
    await ui.page.getByRole('button', { name: 'New conversation' }).click();
    await ui.page.getByRole('button', { name: 'New conversation' }).click();
    await ui.page.keyboard.press('Control+n');
    await ui.page.reload();
    await ui.page.waitForSelector('body[data-ready="true"]');
    await ui.page.keyboard.press('Control+n');
    expect(await rows().count()).toBe(0);
    expect(await list()).toEqual([]);
    expect(files()).toEqual([]);

    await converse('Count the rows of sales.csv', 'There are 42 rows.');
    await expect.poll(() => rows().count()).toBe(1);
    expect(files()).toHaveLength(1);
    await ui.page.reload();
    await ui.page.waitForSelector('body[data-ready="true"]');
    await expect.poll(() => rows().count()).toBe(1);
    await expectText(rows().first(), 'Count the rows of sales.csv');
  });

  it('renames without moving the conversation or changing its time, and search shows the matching text', async () => {
    await converse(
      'Summarise the Lisbon office report',
      'The Lisbon office grew its revenue by 12 percent, mostly from the harbour contracts signed in March.',
    );
    await ui.page.getByRole('button', { name: 'New conversation' }).click();
    await converse('Tidy my downloads folder', 'Moved 31 files into dated folders.');
    await expect
      .poll(async () => (await list()).map((c) => c.title))
      .toEqual(['Tidy my downloads folder', 'Summarise the Lisbon office report']);
    // The end of a turn stamps its time: compare once both have wound up.
    for (const c of await list()) await ui.aut.app.context.agent.idle(c.id);
    const before = await list();
    const olderRow = rows().nth(1);
    const dateBefore = await olderRow.locator('.conv-date').textContent();

    await olderRow.hover();
    await olderRow.getByRole('button', { name: 'Rename Summarise the Lisbon office report' }).click();
    await ui.page.getByRole('textbox', { name: 'Conversation title' }).fill('Lisbon report');
    await ui.page.getByRole('textbox', { name: 'Conversation title' }).press('Enter');
    await expectText(rows().nth(1), 'Lisbon report');
    const after = await list();
    expect(after.map((c) => c.id)).toEqual(before.map((c) => c.id));
    expect(after.map((c) => c.updatedAt)).toEqual(before.map((c) => c.updatedAt));
    expect(after[1]?.title).toBe('Lisbon report');
    expect(await rows().nth(1).locator('.conv-date').textContent()).toBe(dateBefore);
    expect(await rows().first().textContent()).toContain('Tidy my downloads folder');

    const search = ui.page.getByRole('searchbox', { name: 'Search conversations' });
    await search.fill('harbour contracts');
    await expect.poll(() => rows().count()).toBe(1);
    const snippet = rows().first().getByTestId('search-snippet');
    await expectText(snippet, 'revenue by 12 percent, mostly from the harbour contracts signed in March.');
    expect(await snippet.locator('mark').textContent()).toBe('harbour contracts');
    await shot(ui.page, 'ui-conversation-search.png');
    // A match in the title marks the title; no excerpt is needed.
    await search.fill('downloads');
    await expect.poll(() => rows().count()).toBe(1);
    expect(await rows().first().locator('.conv-title mark').textContent()).toBe('downloads');
    expect(await rows().first().getByTestId('search-snippet').count()).toBe(0);
  });

  it('keeps each conversation on the model it was using', async () => {
    await converse('First, on the test model', 'Answered by gpt-test.');
    expect(lastModel()).toBe('gpt-test');
    const first = (await list())[0];

    await ui.page.getByRole('button', { name: 'New conversation' }).click();
    await ui.page.getByTestId('model-button').click();
    const picker = ui.page.getByRole('dialog', { name: 'Choose provider and model' });
    await picker.getByRole('combobox', { name: 'Model' }).fill('gpt-other');
    await picker.getByRole('button', { name: 'Use this model' }).click();
    await expectText(ui.page.getByTestId('model-button'), 'gpt-other');
    await converse('Second, on another model', 'Answered by gpt-other.');
    expect(lastModel()).toBe('gpt-other');

    // Back in the first conversation: its own model, in the header and in the next call.
    await rows()
      .filter({ hasText: 'First, on the test model' })
      .getByRole('button', { name: /First, on the test model/ })
      .click();
    await expectText(ui.page.getByTestId('model-button'), 'gpt-test');
    await converse('Still you?', 'Still gpt-test.');
    expect(lastModel()).toBe('gpt-test');
    expect(
      (await ui.aut.app.handlers['conversation.get']({ conversationId: first?.id ?? '' }, { transport: 'websocket' })).modelChoice,
    ).toMatchObject({ provider: 'openai', model: 'gpt-test' });

    // The row's own button (its Rename and Delete buttons name the conversation too, after their verb).
    await rows()
      .filter({ hasText: 'Second, on another model' })
      .getByRole('button', { name: /^Second, on another model/ })
      .click();
    await expectText(ui.page.getByTestId('model-button'), 'gpt-other');
    // A new conversation starts on the last model chosen.
    await ui.page.getByRole('button', { name: 'New conversation' }).click();
    await expectText(ui.page.getByTestId('model-button'), 'gpt-other');
  });
});
