import { writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectAttribute, expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { currentConversation, sendMessage } from '../support/ui-harness';

// A cell that prints a million lines (issue 25 item 13: the page stopped painting for seconds). The
// page is sent only the rows it draws — never the whole output in one message — and stays responsive
// while the flood arrives: what is typed is handled before the run ends. Every row stays reachable
// ("show 4,000 more"), and the saved conversation keeps all of them. Real shell, real Chromium.

const CELL_DONE = '"name":"cell.done"';

describe('a million-line cell', () => {
  const ui = useUiApp({ settings: { autoRun: true } }, { newConversation: true });

  it('keeps the page responsive, sends it only the rows drawn, and brings the rest on request', async () => {
    // The run holds until the test lets it go, so "before the run ends" is an order, not a race.
    const code = 'seq 1 1000000; echo PRINTED; until [ -e release ]; do sleep 0.05; done; echo RELEASED';
    ui.aut.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_million', name: 'execute', arguments: { language: 'shell', code } }] },
      { kind: 'text', text: 'Printed them.' },
    );
    await sendMessage(ui.page, 'Print a million lines');
    const cell = ui.page.getByTestId('cell').last();
    await expectAttribute(cell, 'data-status', 'running', 60_000);
    // The whole million has been sent to the page's terminal: the page has all of it still to draw.
    await expect.poll(() => ui.frames.some((f) => f.includes('PRINTED')), { timeout: 120_000 }).toBe(true);

    // A click and typing are handled while the run is still going (it cannot end before `release`).
    const box = ui.page.getByRole('textbox', { name: 'Message' });
    await box.click();
    await ui.page.keyboard.type('still here');
    await expect.poll(() => box.inputValue(), { timeout: 60_000 }).toBe('still here');
    expect(await cell.getAttribute('data-status')).toBe('running');

    const { id, workspace } = await currentConversation(ui.aut);
    writeFileSync(path.join(workspace, 'release'), '');
    await expectAttribute(cell, 'data-status', 'done', 60_000);

    // The saved view: the first and last 2,000 rows, the rest counted (1,000,002 rows in all).
    const terminal = cell.getByTestId('terminal');
    await expectText(terminal.getByTestId('lines-hidden'), '… 996,002 lines not shown (the middle) …');
    const text = (await terminal.textContent()) ?? '';
    expect(text.startsWith('1\n2\n3\n')).toBe(true);
    expect(text.trimEnd().endsWith('999999\n1000000\nPRINTED\nRELEASED')).toBe(true);
    expect(text).toContain('\n2000\n');
    expect(text).not.toContain('\n2001\n');

    // No message to the page carried the output whole: the finished cell came as its drawn rows.
    const done = ui.frames.filter((f) => f.includes(CELL_DONE));
    expect(done).toHaveLength(1);
    expect(done[0]?.length).toBeLessThan(100_000);
    expect(Math.max(...ui.frames.map((f) => f.length))).toBeLessThan(256 * 1024);

    // The rows between come a page at a time, in order, below the head.
    await cell.getByTestId('lines-more').click();
    await expectText(terminal.getByTestId('lines-hidden'), '… 992,002 lines not shown (the middle) …');
    const more = (await terminal.textContent()) ?? '';
    expect(more).toContain('\n2000\n2001\n2002\n');
    expect(more).toContain('\n5999\n6000\n… 992,002');
    await expectText(cell.getByTestId('lines-more'), 'show 4,000 more');

    // The saved conversation (and so its exports) keeps every row.
    await ui.aut.app.context.agent.idle(id);
    const saved = JSON.parse(readFileSync(path.join(ui.aut.dataDir, 'conversations', `${id}.json`), 'utf8')) as {
      items: Array<{ kind: string; outputs?: Array<{ text?: string }> }>;
    };
    const whole = (saved.items.find((i) => i.kind === 'cell')?.outputs ?? []).map((o) => o.text ?? '').join('');
    expect(whole).toContain('\n500000\n500001\n');
    expect(whole.split('\n').filter(Boolean)).toHaveLength(1_000_002);
  });
});
