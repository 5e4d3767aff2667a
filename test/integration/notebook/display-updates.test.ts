import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings, type AnyEvent, type CellItem } from '@contract';
import { createExecService, type ExecService } from '../../../src-main/core/exec';
import { applyEvent, viewOf } from '../../../src-renderer/state/conversation-reducer';
import { startAppUnderTest, type AppUnderTest } from '../../support/app-under-test';
import { SYSTEM_PYTHON } from '../../support/jupyter-home';
import { startJupyter, type Jupyter } from '../../support/jupyter';
import { executedByNbconvert } from './support/real-shapes';
import { rerunInApp, type NbOutput } from './support/rerun-in-app';

// Displays with an id show the last data sent for it, wherever they are, as Jupyter front ends apply
// update_display_data (IPython's "Updating Displays" example: ProgressBar, display handles, updates
// from a later cell). Compared with what `nbconvert --execute` saves for a notebook of that shape, and
// through a real turn: the saved conversation, the page's reducer and the export all hold the update.

const RESOURCES_DIR = path.resolve(import.meta.dirname, '../../../resources');

const CELLS = [
  'from IPython.display import display, update_display, ProgressBar',
  // Updated in the same cell, through the handle and by id.
  "h = display('first', display_id=True)\nh.update('second')\ndisplay('a', display_id='named')\nprint('text between')\nupdate_display('b', display_id='named')",
  // Two displays of one id; both take the update, from the next cell.
  "display('one', display_id='twice')\ndisplay('one again', display_id='twice')",
  "update_display({'text/plain': 'both updated', 'text/html': '<b>both updated</b>'}, display_id='twice', raw=True)",
  // An update of an id nothing shows changes nothing; a plain display is never touched.
  "update_display('nobody', display_id='missing')\ndisplay('plain')",
  'for _ in ProgressBar(10):\n    pass',
];

function notebookOf(cells: string[]): string {
  return JSON.stringify({
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' }, language_info: { name: 'python' } },
    cells: cells.map((source, i) => ({ id: `c${i}`, cell_type: 'code', metadata: {}, source, outputs: [], execution_count: null })),
  });
}

/** Each code cell's outputs as Jupyter reads them (multiline text joined), for comparison. */
function outputsOf(text: string): unknown[][] {
  const join = (v: unknown) => (Array.isArray(v) ? v.join('') : v);
  return (JSON.parse(text) as { cells: Array<{ cell_type: string; outputs?: NbOutput[] }> }).cells
    .filter((c) => c.cell_type === 'code')
    .map((c) =>
      (c.outputs ?? []).map((o) => ({
        ...o,
        ...(o.text !== undefined ? { text: join(o.text) } : {}),
        ...(o.data ? { data: Object.fromEntries(Object.entries(o.data).map(([k, v]) => [k, join(v)])) } : {}),
      })),
    );
}

describe('updated displays', () => {
  let jupyter: Jupyter;
  let exec: ExecService;
  let tmpRoot: string;

  beforeAll(() => {
    jupyter = startJupyter();
    tmpRoot = mkdtempSync(path.join(os.tmpdir(), 'oi-display-updates-'));
    exec = createExecService({ resourcesDir: RESOURCES_DIR, tmpRoot, graceMs: 500 });
  });
  afterAll(async () => {
    await exec?.dispose();
    if (tmpRoot) rmSync(tmpRoot, { recursive: true, force: true });
    jupyter?.dispose();
  });

  it('re-run and exported, hold the last value of each display, as nbconvert --execute saves them', async () => {
    const text = notebookOf(CELLS);
    const { updating: expected } = await executedByNbconvert(jupyter, { updating: text });
    const settings = { ...defaultSettings.exec, pythonPath: SYSTEM_PYTHON, timeoutMs: 120_000 };
    const workspace = mkdtempSync(path.join(tmpRoot, 'rerun-'));
    const { exported, stoppedAt } = await rerunInApp(exec, text, { name: 'updating', workspace, settings });
    expect(stoppedAt).toBeNull();
    const ours = outputsOf(exported);
    expect(ours).toEqual(outputsOf(expected!));
    // What that means, spelled out: no first values left anywhere.
    expect(JSON.stringify(ours)).not.toMatch(/'first'|'a'|'one'| 0\/10/);
    expect(ours[5]).toMatchObject([{ data: { 'text/plain': expect.stringContaining('10/10') as unknown } }]);
  }, 300_000);

  describe('in a turn', () => {
    let aut: AppUnderTest;
    const events: AnyEvent[] = [];
    const ctx = { transport: 'websocket' as const };
    beforeAll(async () => {
      aut = await startAppUnderTest({ autoRun: true, exec: { pythonPath: SYSTEM_PYTHON } });
      aut.app.events.subscribe((e) => void events.push(e));
    });
    afterAll(async () => aut?.close());

    it('updates an earlier cell’s display in the saved conversation, on the page and in the export', async () => {
      const call = (id: string, code: string) => ({
        kind: 'tool' as const,
        calls: [{ id, name: 'execute', arguments: { language: 'python', code } }],
      });
      aut.llm.enqueue(
        call('call_show', "from IPython.display import display, update_display\nstatus = display('0 rows loaded', display_id='status')"),
        call('call_update', "update_display('3 rows loaded', display_id='status')\nprint('updated')"),
        { kind: 'text', text: 'Done.' },
      );
      const conv = await aut.app.handlers['conversation.create']({}, ctx);
      const opened = await aut.app.handlers['conversation.get']({ conversationId: conv.id }, ctx);
      await aut.app.handlers['chat.send']({ conversationId: conv.id, text: 'load the rows' }, ctx);
      await expect.poll(() => events.some((e) => e.name === 'turn.end'), { timeout: 120_000 }).toBe(true);
      await aut.app.context.agent.idle(conv.id);

      const saved = await aut.app.handlers['conversation.get']({ conversationId: conv.id }, ctx);
      const cells = saved.items.filter((i): i is CellItem => i.kind === 'cell');
      expect(cells.map((c) => c.status)).toEqual(['done', 'done']);
      expect(cells[0]?.outputs).toEqual([
        { output_type: 'display_data', data: { 'text/plain': "'3 rows loaded'" }, metadata: {}, displayId: 'status' },
      ]);
      // The page folds the same events into the same outputs.
      const mine = events.filter((e) => (e.payload as { conversationId?: string }).conversationId === conv.id);
      expect(mine.some((e) => e.name === 'cell.display-updated')).toBe(true);
      const shown = mine.reduce((view, e) => applyEvent(view, e), viewOf(opened));
      const shownCells = shown.conv.items.filter((i): i is CellItem => i.kind === 'cell');
      expect(shownCells.map((c) => c.outputs)).toEqual(cells.map((c) => c.outputs));
      // The model read the update where it happened.
      expect(cells[1]?.resultForModel).toContain("[display updated] '3 rows loaded'");

      const { text } = await aut.app.handlers['notebook.export']({ conversationId: conv.id }, ctx);
      const exportedOutputs = outputsOf(text);
      expect(exportedOutputs[0]).toEqual([{ output_type: 'display_data', data: { 'text/plain': "'3 rows loaded'" }, metadata: {} }]);
      expect(await jupyter.validate([text], { exact: true })).toEqual([null]);
    });
  });
});
