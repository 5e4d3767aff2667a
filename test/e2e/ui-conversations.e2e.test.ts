import { describe, expect, it } from 'vitest';
import { TITLE_MAX } from '@contract/limits';
import { expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { sendMessage, type OpenAiBody } from '../support/ui-harness';

describe('conversations: list, keyboard, retry, regenerate, edit and resend', () => {
  const ui = useUiApp();

  const rows = () => ui.page.getByTestId('conversation-list').locator('.conv-row');
  const chatBodies = () => ui.aut.llm.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as OpenAiBody);

  it('starts conversations with Ctrl+N, searches with Ctrl+K, renames and deletes them', async () => {
    for (const text of ['Plot the weather data', 'Rename my photos']) {
      await ui.page.keyboard.press('Control+n');
      await expect.poll(() => ui.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Message');
      ui.aut.llm.enqueue({ kind: 'text', text: `On it: ${text}` });
      // Shift+Enter makes a new line; Enter sends.
      const box = ui.page.getByRole('textbox', { name: 'Message' });
      await box.fill(text);
      await box.press('Shift+Enter');
      await box.type('please');
      expect(await box.inputValue()).toBe(`${text}\nplease`);
      await box.press('Enter');
      await expectText(ui.page.getByTestId('assistant-message').last(), `On it: ${text}`);
    }
    await expect.poll(() => rows().count()).toBe(2);

    await ui.page.keyboard.press('Control+k');
    const search = ui.page.getByRole('searchbox', { name: 'Search conversations' });
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
    await search.fill('weather');
    await expect.poll(() => rows().count()).toBe(1);
    await expectText(rows().first(), 'Plot the weather data');
    await search.fill('');
    await expect.poll(() => rows().count()).toBe(2);

    const photos = rows().filter({ hasText: 'Rename my photos' });
    await photos.hover();
    await photos
      .locator('.row-actions')
      .getByRole('button', { name: /^Rename / })
      .click();
    const titleBox = ui.page.getByRole('textbox', { name: 'Conversation title' });
    // The field stops at the contract's limit, so a long paste is cut, not refused on Enter.
    await titleBox.fill('x'.repeat(TITLE_MAX + 100));
    expect((await titleBox.inputValue()).length).toBe(TITLE_MAX);
    await titleBox.fill('Holiday photos');
    await titleBox.press('Enter');
    await expect
      .poll(async () => (await ui.aut.app.handlers['conversation.list']({}, { transport: 'websocket' })).map((c) => c.title).sort())
      .toEqual(['Holiday photos', 'Plot the weather data\nplease'.replace('\n', ' ')]);
    await expectText(ui.page.getByTestId('conversation-list'), 'Holiday photos');

    const holiday = rows().filter({ hasText: 'Holiday photos' });
    await holiday.hover();
    await holiday.getByRole('button', { name: 'Delete Holiday photos' }).click();
    await ui.page.getByRole('group', { name: 'Delete Holiday photos?' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => rows().count()).toBe(1);
    expect((await ui.aut.app.handlers['conversation.list']({}, { transport: 'websocket' })).map((c) => c.title)).toEqual([
      'Plot the weather data please',
    ]);
  });

  it('resizes panels with the keyboard, remembers the sizes, and hides the files panel', async () => {
    const sidebar = ui.page.getByRole('navigation', { name: 'Conversations' });
    const before = (await sidebar.boundingBox())?.width ?? 0;
    const handle = ui.page.getByRole('separator', { name: 'Resize the conversation list' });
    await handle.focus();
    for (let i = 0; i < 4; i++) await handle.press('ArrowRight');
    await expect.poll(async () => Math.round((await sidebar.boundingBox())?.width ?? 0)).toBe(Math.round(before + 64));
    await ui.page.reload();
    await expect.poll(async () => Math.round((await sidebar.boundingBox())?.width ?? 0)).toBe(Math.round(before + 64));
    await ui.page.getByRole('button', { name: 'Hide the files panel' }).click();
    await expect.poll(() => ui.page.getByRole('complementary', { name: 'Workspace' }).count()).toBe(0);
    await ui.page.getByRole('button', { name: 'Show the files panel' }).click();
    await expect.poll(() => ui.page.getByRole('complementary', { name: 'Workspace' }).count()).toBe(1);
  });

  it('shows why a model call failed and retries it', async () => {
    ui.aut.llm.enqueue({ kind: 'error', status: 400, message: 'This model cannot do that today' });
    await ui.page.getByRole('button', { name: 'New conversation' }).click();
    await sendMessage(ui.page, 'Hello?');
    const notice = ui.page.getByTestId('notice').last();
    await expectText(notice, /The model call failed: .*This model cannot do that today/);
    ui.aut.llm.enqueue({ kind: 'text', text: 'Working again.' });
    await notice.getByRole('button', { name: 'Retry' }).click();
    await expectText(ui.page.getByTestId('assistant-message').last(), 'Working again.');
    // The failed attempt's notice is gone from the conversation, and the model saw the question once.
    await expect.poll(() => ui.page.getByTestId('notice').count()).toBe(0);
    expect(
      chatBodies()
        .at(-1)
        ?.messages.filter((m) => m.role === 'user'),
    ).toHaveLength(1);
  });

  it('regenerates the last answer and edits and resends the last message', async () => {
    await ui.page.getByRole('button', { name: 'New conversation' }).click();
    ui.aut.llm.enqueue({ kind: 'text', text: 'First answer.' });
    await sendMessage(ui.page, 'Name a colour');
    await expectText(ui.page.getByTestId('assistant-message').last(), 'First answer.');

    ui.aut.llm.enqueue({ kind: 'text', text: 'Second answer.' });
    const answer = ui.page.getByTestId('assistant-message').last();
    await answer.hover();
    await answer.getByRole('button', { name: 'Regenerate' }).click();
    await expectText(ui.page.getByTestId('assistant-message').last(), 'Second answer.');
    await expect.poll(() => ui.page.getByTestId('assistant-message').count()).toBe(1);

    ui.aut.llm.enqueue({ kind: 'text', text: 'Blue.' });
    const question = ui.page.getByTestId('user-message').last();
    await question.hover();
    await question.getByRole('button', { name: 'Edit' }).click();
    await ui.page.getByRole('textbox', { name: 'Edit your message' }).fill('Name a cold colour');
    await ui.page.getByRole('button', { name: 'Resend' }).click();
    await expectText(ui.page.getByTestId('assistant-message').last(), 'Blue.');
    await expect.poll(() => ui.page.getByTestId('user-message').count()).toBe(1);
    await expectText(ui.page.getByTestId('user-message'), 'Name a cold colour');
    const last = chatBodies().at(-1);
    expect(last?.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['Name a cold colour']);
  });
});
