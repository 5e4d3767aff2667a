import { describe, expect, it } from 'vitest';
import { expectAttribute } from '../support/page-expect';
import { everythingStdio } from '../support/mcp-servers';
import { useUiApp } from '../support/ui-fixture';
import { shot } from '../support/ui-harness';

// An MCP tool call in the chat, in Chromium: the call asks for approval as a cell; "Always allow echo"
// runs it and remembers the tool, so the next call of echo runs without asking.

describe('an MCP call in the chat', () => {
  // echo is marked read-only by its server; set to Ask, it asks like any tool.
  const ui = useUiApp({ settings: { mcpServers: { everything: everythingStdio({ askTools: ['echo'] }) } } });

  it('asks first, and "Always allow" runs it and the next call of the tool without asking', async () => {
    const { page } = ui;
    ui.aut.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_1', name: 'mcp__everything__echo', arguments: { message: 'first' } }] },
      { kind: 'tool', calls: [{ id: 'call_2', name: 'mcp__everything__echo', arguments: { message: 'second' } }] },
      { kind: 'text', text: 'Both echoed.' },
    );
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill('echo twice');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await expectAttribute(page.getByTestId('cell').first(), 'data-status', 'awaiting-approval', 30_000);
    await shot(page, 'ui-mcp-approval.png');
    await page.getByRole('button', { name: 'Always allow echo' }).click();
    await expectAttribute(page.getByTestId('cell').nth(1), 'data-status', 'done', 30_000);
    await expectAttribute(page.getByTestId('cell').first(), 'data-status', 'done');
    expect(ui.aut.app.context.settings.get().mcpServers.everything?.alwaysAllow).toEqual(['echo']);
    const conv = await ui.aut.app.handlers['conversation.list']({}, { transport: 'websocket' });
    const snapshot = await ui.aut.app.context.agent.snapshot(conv[0]!.id);
    const cells = snapshot.items.filter((i) => i.kind === 'cell');
    expect(cells.map((c) => c.kind === 'cell' && c.approval)).toEqual(['user', 'auto']);
  });
});
