import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectAttribute, expectText } from '../support/page-expect';
import { useUiApp } from './ui-fixture';
import { currentConversation, sendMessage, SHOTS } from './ui-harness';

// Output shown as the program wrote it (issue 12, items 6-9 and 11), in the real app in Chromium.

type SavedOutput = { output_type: string; name?: string; text?: string };
type SavedCell = { kind: string; outputs: SavedOutput[] };

describe('stderr stays stderr', () => {
  const ui = useUiApp({ settings: { autoRun: true, exec: { pythonPath: '/usr/bin/python3' } } }, { newConversation: true });
  const cells = () => ui.page.getByTestId('cell');

  it('is marked in the cell (colour and label), kept in the saved conversation and the notebook export, after a reload too', async () => {
    ui.aut.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_py', name: 'execute', arguments: { language: 'python', code: 'import sys\nprint("py-out-1")\nprint("py-err-2", file=sys.stderr)\nprint("py-out-3")' } }] },
      { kind: 'tool', calls: [{ id: 'call_sh', name: 'execute', arguments: { language: 'shell', code: 'echo sh-out; cat /no/such/oi-e2e-file; (exit 3)' } }] },
      { kind: 'text', text: 'Both ran.' },
    );
    await sendMessage(ui.page, 'Write to both streams');
    await expectText(ui.page.getByTestId('assistant-message').last(), 'Both ran.', 60_000);
    await expectAttribute(cells().nth(1), 'data-status', 'failed');

    const check = async () => {
      const py = cells().first().getByTestId('terminal');
      await expectText(py, /py-out-1\s*py-err-2\s*py-out-3/);
      const pyErr = py.locator('[data-stream="stderr"]');
      expect((await pyErr.allTextContents()).map((t) => t.trim())).toEqual(['py-err-2']);
      // Marked: its own colour and a "stderr" label (CSS, so copying the text does not take it).
      const look = await pyErr.evaluate((el) => ({
        color: getComputedStyle(el).color,
        plain: getComputedStyle(el.parentElement as Element).color,
        label: getComputedStyle(el, '::before').content,
      }));
      expect(look.label).toBe('"stderr"');
      expect(look.color).not.toBe(look.plain);
      const sh = cells().nth(1).getByTestId('terminal');
      await expectText(sh, 'sh-out');
      expect((await sh.locator('[data-stream="stderr"]').allTextContents()).map((t) => t.trim())).toEqual(['cat: /no/such/oi-e2e-file: No such file or directory']);
      // No stray "exit" line, no integration text.
      expect(await sh.textContent()).not.toMatch(/(^|\n)exit\n|__oi/);
    };
    await check();
    await cells().nth(1).scrollIntoViewIfNeeded();
    await ui.page.screenshot({ path: path.join(SHOTS, 'ui-output-stderr.png') });

    const { id } = await currentConversation(ui.aut);
    await ui.aut.app.context.agent.idle(id);
    const saved = JSON.parse(readFileSync(path.join(ui.aut.dataDir, 'conversations', `${id}.json`), 'utf8')) as { items: SavedCell[] };
    const streams = saved.items.filter((i) => i.kind === 'cell').map((c) => c.outputs.filter((o) => o.output_type === 'stream').map((o) => `${o.name}:${o.text}`));
    expect(streams[0]).toEqual(['stdout:py-out-1\n', 'stderr:py-err-2\n', 'stdout:py-out-3\n']);
    expect(streams[1]).toEqual(['stdout:sh-out\n', 'stderr:cat: /no/such/oi-e2e-file: No such file or directory\n']);

    const { text } = await ui.aut.app.handlers['notebook.export']({ conversationId: id }, { transport: 'websocket' });
    type NbCell = { cell_type: string; outputs?: { output_type: string; name?: string; text?: string | string[] }[] };
    const nbStreams = (JSON.parse(text) as { cells: NbCell[] }).cells
      .filter((c) => c.cell_type === 'code')
      .map((c) => (c.outputs ?? []).filter((o) => o.output_type === 'stream').map((o) => `${o.name}:${Array.isArray(o.text) ? o.text.join('') : o.text}`));
    expect(nbStreams[0]).toEqual(['stdout:py-out-1\n', 'stderr:py-err-2\n', 'stdout:py-out-3\n']);
    expect(nbStreams[1]?.[1]).toBe('stderr:cat: /no/such/oi-e2e-file: No such file or directory\n');

    await ui.page.reload();
    await ui.page.waitForSelector('body[data-ready="true"]');
    await ui.page.getByRole('button', { name: 'Write to both streams' }).click();
    await check();
  });
});
