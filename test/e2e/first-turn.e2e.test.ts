import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectAttribute, expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { shot } from '../support/ui-harness';
import { executeThenSay } from '../support/scripted-replies';

interface OpenAiBody {
  messages: Array<{ role: string; content: string | null; tool_call_id?: string; tool_calls?: Array<{ id: string }> }>;
  tools?: unknown[];
}

describe('the first turn, end to end in Chromium', () => {
  // The tests share one app and page, each in a new conversation of its own (ui-fixture.ts's 'shared': a
  // test that leaves anything changed hands the next a fresh app), so each proves what it did alone.
  const ui = useUiApp({}, { viewport: { width: 1280, height: 800 }, start: 'shared' });

  const startTurn = async (message: string) => {
    await ui.page.getByRole('button', { name: 'New conversation' }).click();
    await ui.page.getByRole('textbox', { name: 'Message' }).fill(message);
    await ui.page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await expectAttribute(ui.page.getByTestId('cell'), 'data-status', 'awaiting-approval');
  };

  it('streams the code, runs it in bash on Run, and gives the output back to the model', async () => {
    ui.aut.llm.enqueue(
      ...executeThenSay(
        {
          id: 'call_1',
          language: 'shell',
          code: 'echo "hello from $(basename "$PWD")"; echo $((6 * 7))',
          text: 'Let me look at the workspace.',
        },
        'The shell printed **42**, so arithmetic works.',
      ),
    );
    await startTurn('Check that the shell works');
    await expectText(ui.page.getByTestId('cell-code'), 'echo $((6 * 7))');

    await ui.page.getByRole('button', { name: 'Run', exact: true }).click();
    await expectAttribute(ui.page.getByTestId('cell'), 'data-status', 'done', 20_000);
    await expectText(ui.page.getByTestId('terminal'), '42');
    await expectText(ui.page.getByTestId('assistant-message').last(), 'The shell printed 42', 15_000);
    await shot(ui.page, 'first-turn.png');

    expect(ui.aut.llm.requests).toHaveLength(2);
    const second = ui.aut.llm.requests[1]?.body as OpenAiBody;
    const toolMessage = second.messages.find((m) => m.role === 'tool');
    expect(toolMessage?.tool_call_id).toBe('call_1');
    expect(toolMessage?.content).toContain('42');
    const conv = (await ui.aut.app.handlers['conversation.list']({}, { transport: 'websocket' }))[0];
    expect(toolMessage?.content).toContain(`hello from ${path.basename(conv?.workspace ?? '')}`);
  });

  it('tells the model the user declined when the cell is skipped, and runs nothing', async () => {
    ui.aut.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_skip', name: 'execute', arguments: { language: 'shell', code: 'touch should-not-exist' } }] },
      { kind: 'text', text: 'Understood, I will not run it.' },
    );
    await startTurn('Make a file');
    await ui.page.getByRole('button', { name: 'Skip' }).click();
    await expectAttribute(ui.page.getByTestId('cell'), 'data-status', 'skipped');
    await expectText(ui.page.getByTestId('assistant-message').last(), 'I will not run it');

    const second = ui.aut.llm.requests[1]?.body as OpenAiBody;
    const toolMessage = second.messages.find((m) => m.role === 'tool');
    expect(toolMessage?.tool_call_id).toBe('call_skip');
    expect(toolMessage?.content).toMatch(/declined/);
    const conv = (await ui.aut.app.handlers['conversation.list']({}, { transport: 'websocket' }))[0];
    const { existsSync } = await import('node:fs');
    expect(existsSync(path.join(conv?.workspace ?? '/nonexistent', 'should-not-exist'))).toBe(false);
  });
});
