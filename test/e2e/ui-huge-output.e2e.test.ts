import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectAttribute, expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { currentConversation, sendMessage, shot } from '../support/ui-harness';

// Huge output (issue 12 #8): a run past the cap shows its head and its tail, never a slice from the
// middle, says how many lines it leaves out, and links to the whole output, which opens in the
// preview. The model is given both ends too. Real app, real Python, Chromium.

interface OpenAiBody {
  messages: Array<{ role: string; content: string | null; tool_call_id?: string }>;
}

const ROWS = 100_000;
// 6.1 MB: a first and a last line found nowhere else, rows of 61 bytes between.
const CODE = `print("FIRST-LINE-oi-e2e")\nfor i in range(${ROWS}):\n    print("%06d" % i, "x" * 53)\nprint("LAST-LINE-oi-e2e")`;
const FILE_BYTES = 18 + ROWS * 61 + 17;
const LINES = ROWS + 2;

describe('huge output', () => {
  // A 1 MB cap: the 6 MB output passes it well (the default is 8 MB).
  const ui = useUiApp(
    { settings: { autoRun: true, exec: { pythonPath: '/usr/bin/python3', outputCapBytes: 1024 * 1024 } } },
    { newConversation: true },
  );

  it('shows head and tail with the lines left out counted, and opens the full output in the preview', async () => {
    ui.aut.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_big', name: 'execute', arguments: { language: 'python', code: CODE } }] },
      { kind: 'text', text: 'That was a lot of output.' },
    );
    await sendMessage(ui.page, 'Print a lot');
    await expectText(ui.page.getByTestId('assistant-message').last(), 'That was a lot of output.', 90_000);
    const cell = ui.page.getByTestId('cell').last();
    await expectAttribute(cell, 'data-status', 'done');

    // The cell: the first 2,000 lines, the note, the last 2,000.
    const terminal = cell.getByTestId('terminal');
    const hidden = terminal.getByTestId('lines-hidden');
    await expectText(hidden, `… ${(LINES - 4000).toLocaleString('en-US')} lines not shown (the middle) …`);
    const text = (await terminal.textContent()) ?? '';
    expect(text.startsWith('FIRST-LINE-oi-e2e\n000000 x')).toBe(true);
    expect(text.trimEnd().endsWith(`${String(ROWS - 1).padStart(6, '0')} ${'x'.repeat(53)}\nLAST-LINE-oi-e2e`)).toBe(true);
    const before = text.slice(0, text.indexOf('… '));
    const after = text.slice(text.indexOf(' …') + 2);
    expect(before).toContain('001998 x');
    expect(before).not.toContain('001999 x');
    expect(after).toContain(`0${ROWS - 1999} x`);
    expect(after).not.toContain(`0${ROWS - 2000} x`);

    // The link to the whole output, with its size; it opens the saved log in the preview.
    const link = cell.getByTestId('full-output');
    await expectText(link, `full output (${(FILE_BYTES / 2 ** 20).toFixed(1)} MB)`);
    // The screenshot shows the end of the head, the note and the start of the tail.
    await hidden.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await shot(ui.page, 'ui-huge-output.png');
    await link.click();
    const { id, workspace } = await currentConversation(ui.aut);
    await expectText(ui.page.getByTestId('preview-title'), /^\.oi\/outputs\/.+\.log$/);
    await expectText(ui.page.getByTestId('preview-text'), /^FIRST-LINE-oi-e2e\n000000 x+\n000001 x/);
    await expectText(ui.page.getByTestId('preview'), `of ${(FILE_BYTES / 2 ** 20).toFixed(1)} MB`);
    await shot(ui.page, 'ui-huge-output-preview.png');
    const logPath = (await ui.page.getByTestId('preview-title').textContent()) ?? '';
    const log = path.join(workspace, logPath);
    expect(statSync(log).size).toBe(FILE_BYTES);
    expect(readFileSync(log, 'utf8').endsWith(`${'x'.repeat(53)}\nLAST-LINE-oi-e2e\n`)).toBe(true);

    // The model was given both ends and told where the rest is.
    const second = ui.aut.llm.requests[1]?.body as OpenAiBody;
    const told = second.messages.find((m) => m.role === 'tool' && m.tool_call_id === 'call_big')?.content ?? '';
    expect(told).toMatch(/FIRST-LINE-oi-e2e\n000000 x/);
    expect(told).toMatch(/elided/);
    expect(told).toMatch(/LAST-LINE-oi-e2e\n… .* more, saved to .*\.oi\/outputs\/.+\.log/);

    // Kept in the saved conversation: after a reload the cell still shows both ends and the link.
    await ui.aut.app.context.agent.idle(id);
    const saved = JSON.parse(readFileSync(path.join(ui.aut.dataDir, 'conversations', `${id}.json`), 'utf8')) as {
      items: Array<{ kind: string; fullOutput?: unknown }>;
    };
    expect(saved.items.find((i) => i.kind === 'cell')?.fullOutput).toEqual({ path: logPath, bytes: FILE_BYTES, lines: LINES });
    await ui.page.reload();
    await ui.page.waitForSelector('body[data-ready="true"]');
    // The conversation row's own button (its Rename and Delete buttons name it too, after their verb).
    await ui.page.getByRole('button', { name: /^Print a lot/ }).click();
    await expectText(ui.page.getByTestId('cell').last().getByTestId('lines-hidden'), (LINES - 4000).toLocaleString('en-US'));
    await expectText(ui.page.getByTestId('cell').last().getByTestId('full-output'), 'full output (');
  });
});
