import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectText } from '../support/page-expect';
import { everythingStdio } from '../support/mcp-servers';
import { useUiApp } from '../support/ui-fixture';
import { shot } from '../support/ui-harness';

// The composer's MCP menu in Chromium against the real app and server-everything: a resource attached
// to a message, and a prompt used as a slash command with an argument; the model receives both. Saved
// commands (docs/agent.md#saved-commands) share the slash list: picked with their arguments, or sent
// typed as "/name arguments".

describe('MCP resources and prompts in the composer', () => {
  // The tests share one app and page, each in a new conversation of its own (ui-fixture.ts's 'shared': a
  // test that leaves anything changed hands the next a fresh app), so each proves what it did alone.
  const ui = useUiApp({ settings: { mcpServers: { everything: everythingStdio() } } }, { start: 'shared' });

  it('attaches a resource and fills the message from a /prompt, and the model gets both', async () => {
    const { page } = ui;
    ui.aut.llm.enqueue({ kind: 'text', text: 'Got the document and the city.' });
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.getByRole('button', { name: 'Resources and prompts of MCP servers' }).click();
    const menu = page.getByTestId('mcp-composer-menu');
    await menu.getByRole('button', { name: 'Attach architecture.md' }).click({ timeout: 60_000 });
    await expectText(page.locator('.composer'), /architecture\.md/, 30_000);

    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('/args');
    await menu.getByRole('button', { name: '/everything:args-prompt' }).click({ timeout: 30_000 });
    await menu.getByRole('textbox', { name: 'city' }).fill('Paris');
    await shot(page, 'ui-mcp-composer-prompt.png');
    await menu.getByRole('button', { name: 'Use prompt' }).click();
    await expect.poll(() => box.inputValue(), { timeout: 30_000 }).toContain('Paris');
    // The composer sends nothing while an attachment is still being copied in (Enter is ignored then):
    // under load the resource's copy can outlast the prompt's form.
    await expect.poll(() => page.getByTestId('attachment-chip').getAttribute('data-state'), { timeout: 30_000 }).toBe('ready');
    await box.press('Enter');
    await expectText(page.getByText('Got the document and the city.').first(), 'Got the document and the city.', 30_000);

    const sent = JSON.stringify(ui.aut.llm.requests.at(-1)?.body);
    expect(sent).toContain('[Attached MCP resource demo://resource/static/document/architecture.md from server everything');
    expect(sent).toContain('Paris');
  });

  it('offers a saved command in the slash list, fills its arguments, and sends one typed as /name arguments', async () => {
    const { page } = ui;
    const commands = path.join(ui.aut.dataDir, 'commands');
    mkdirSync(commands, { recursive: true });
    writeFileSync(
      path.join(commands, 'review.md'),
      '---\ndescription: Review a pull request\nargument-hint: <pr> [priority]\n---\nReview PR #$1 at priority $2.\n',
    );
    await page.getByRole('button', { name: 'New conversation' }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('/rev');
    const menu = page.getByTestId('mcp-composer-menu');
    await expectText(menu.getByRole('list', { name: 'Saved commands' }), /\/review\s*<pr> \[priority\] · Review a pull request/, 30_000);
    await menu.getByRole('button', { name: '/review' }).click();
    await menu.getByRole('textbox', { name: 'Arguments' }).fill('42 "very high"');
    await menu.getByRole('button', { name: 'Use command' }).click();
    await expect.poll(() => box.inputValue(), { timeout: 30_000 }).toBe('Review PR #42 at priority very high.');

    ui.aut.llm.enqueue({ kind: 'text', text: 'Reviewing 7.' });
    await box.fill('/review 7 low');
    await box.press('Enter');
    await expectText(page.getByText('Reviewing 7.').first(), 'Reviewing 7.', 30_000);
    expect(JSON.stringify(ui.aut.llm.requests.at(-1)?.body)).toContain('Review PR #7 at priority low.');
  });
});
