import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAttribute, expectText } from '../../support/page-expect';
import { useUiApp } from '../../support/ui-fixture';
import { sendMessage, workspaceAfterHello, shot } from '../../support/ui-harness';

// Issue 17, finding 5: markdown from the model (or an imported notebook, or a notebook's text/markdown
// output) drew fake code over the approval card while clicks went through to the real Run button.
// Each overlay below covers the whole window when it reaches the page as written; the tests check
// that, as the app renders them, the real pending code and the Run button are what is on top at their
// own positions, and that every overlay stays inside its own markdown block. The twin puts the same
// HTML into the page without the sanitiser and shows that it covers the card and Run still works
// through it: the vector is real.

const FAKE = 'echo harmless';
const OVERLAYS = {
  // The finding's repro: fixed, full-window, topmost, click-through.
  style: `<div style="position:fixed;inset:0;z-index:2147483647;pointer-events:none;background:#fff;color:#111;padding:40px">overlay-style: ${FAKE}</div>`,
  // No style at all: a class of the app's own CSS (a fixed full-window layer at z-index 50).
  class: `<div class="modal-backdrop">overlay-class: ${FAKE}</div>`,
  // The top layer, above every z-index, opened by a click inside the block.
  popover: `<button popovertarget="oi-fake" type="button">overlay-popover-open</button><div id="oi-fake" popover="manual">overlay-popover: ${FAKE}</div>`,
  dialog: `<dialog open>overlay-dialog: ${FAKE}</dialog>`,
};
const MARKDOWN = `Here is what I will run:\n\n${Object.values(OVERLAYS).join('\n\n')}\n\nPlease approve.`;
const REAL = 'echo REAL-PENDING-CODE';
const cellCall = (id: string) => ({ id, name: 'execute', arguments: { language: 'shell', code: REAL } });

interface HitReport {
  /** Which element is on top at the centre of the pending code, and of the Run button. */
  code: string;
  run: string;
  /** Overlay texts whose box reaches outside the markdown block that holds them. */
  escaped: string[];
  /** Overlay texts drawn (hit) somewhere outside the markdown block that holds them. */
  drawnOutside: string[];
  /** Overlay texts found anywhere in the page, to make sure the check looked at them. */
  found: string[];
  topLayer: boolean;
}

/**
 * What the user sees at the card. Hit testing follows painting once nothing is click-through, so for
 * the duration of the probe every element takes pointer events; elementFromPoint then names whatever
 * is drawn on top.
 */
async function probe(page: Page): Promise<HitReport> {
  await page.getByTestId('cell').last().getByRole('button', { name: 'Run', exact: true }).scrollIntoViewIfNeeded();
  return page.evaluate(() => {
    const all = [...document.querySelectorAll<HTMLElement>('*')];
    const saved = all.map((el) => [el.style.getPropertyValue('pointer-events'), el.style.getPropertyPriority('pointer-events')] as const);
    for (const el of all) el.style.setProperty('pointer-events', 'auto', 'important');
    try {
      const cells = document.querySelectorAll('[data-testid="cell"][data-status="awaiting-approval"]');
      const cell = cells[cells.length - 1];
      if (!cell) throw new Error('no cell is waiting for approval');
      const name = (x: number, y: number): string => {
        const hit = document.elementFromPoint(x, y);
        if (!hit) return 'nothing';
        if (hit.closest('[data-testid="cell"]') === cell) return 'card';
        return `other: ${(hit.textContent ?? '').slice(0, 60)}`;
      };
      const centre = (el: Element | null): [number, number] => {
        if (!el) throw new Error('missing element');
        const r = el.getBoundingClientRect();
        return [r.left + r.width / 2, r.top + r.height / 2];
      };
      const run = [...cell.querySelectorAll('button')].find((b) => b.textContent === 'Run') ?? null;
      const escaped: string[] = [];
      const drawnOutside: string[] = [];
      const found: string[] = [];
      // An 8×8 grid over the part of the element's box in the window and outside its block.
      const hitOutside = (el: Element, r: DOMRect, b: DOMRect | undefined): boolean => {
        for (let i = 0; i < 8; i++) {
          for (let j = 0; j < 8; j++) {
            const x = Math.max(0, r.left) + ((Math.min(innerWidth, r.right) - Math.max(0, r.left)) * (i + 0.5)) / 8;
            const y = Math.max(0, r.top) + ((Math.min(innerHeight, r.bottom) - Math.max(0, r.top)) * (j + 0.5)) / 8;
            if (b && x >= b.left - 1 && x <= b.right + 1 && y >= b.top - 1 && y <= b.bottom + 1) continue;
            const hit = document.elementFromPoint(x, y);
            if (hit && el.contains(hit)) return true;
          }
        }
        return false;
      };
      for (const el of document.querySelectorAll<HTMLElement>('body *')) {
        const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && /overlay-/.test(n.textContent ?? ''));
        if (!own) continue;
        const text = (el.textContent ?? '').trim().slice(0, 40);
        found.push(text);
        const block = el.closest('.markdown');
        const r = el.getBoundingClientRect();
        const b = block?.getBoundingClientRect();
        if (!b || r.left < b.left - 1 || r.top < b.top - 1 || r.right > b.right + 1 || r.bottom > b.bottom + 1) escaped.push(text);
        if (hitOutside(el, r, b)) drawnOutside.push(text);
      }
      return {
        code: name(...centre(cell.querySelector('[data-testid="cell-code"]'))),
        run: name(...centre(run)),
        escaped,
        drawnOutside,
        found,
        topLayer: document.querySelector(':popover-open, dialog:modal') !== null,
      };
    } finally {
      all.forEach((el, i) => {
        const [value, priority] = saved[i] ?? ['', ''];
        if (value) el.style.setProperty('pointer-events', value, priority);
        else el.style.removeProperty('pointer-events');
      });
    }
  });
}

/** Clicks whatever opens a popover in the page, as a curious user would. */
async function clickPopoverOpeners(page: Page): Promise<void> {
  const openers = page.getByRole('button', { name: 'overlay-popover-open' });
  for (let i = 0; i < (await openers.count()); i++) await openers.nth(i).click();
}

/** The markdown as rendered, not the plain text shown while its chunk loads (features/markdown/Markdown.tsx). */
const RENDERED = '.markdown:not(.markdown-plain)';

async function expectCardOnTop(page: Page, picture: string): Promise<void> {
  await expect.poll(() => page.locator('.markdown-plain').count()).toBe(0);
  await clickPopoverOpeners(page);
  const report = await probe(page);
  await shot(page, picture);
  expect(report.found.length).toBeGreaterThanOrEqual(4);
  expect(report).toMatchObject({ code: 'card', run: 'card', escaped: [], drawnOutside: [], topLayer: false });
  await expectText(page.getByTestId('cell-code').last(), REAL);
  // The real Run runs the real code.
  await page.getByTestId('cell').last().getByRole('button', { name: 'Run', exact: true }).click();
  await expectAttribute(page.getByTestId('cell').last(), 'data-status', 'done', 20_000);
  await expectText(page.getByTestId('terminal').last(), 'REAL-PENDING-CODE');
}

function notebookOf(cells: unknown[]): Record<string, unknown> {
  const kernelspec = { name: 'python3', display_name: 'Python 3', language: 'python' };
  return { nbformat: 4, nbformat_minor: 5, metadata: { kernelspec, language_info: { name: 'python' } }, cells };
}

describe('attack: markdown drawn over the approval card (issue 17, finding 5)', () => {
  // The tests share one app and page, each in a new conversation of its own (ui-fixture.ts's 'shared': a
  // test that leaves anything changed hands the next a fresh app), so each proves what it did alone.
  const ui = useUiApp({}, { newConversation: true, viewport: { width: 1400, height: 860 }, start: 'shared' });

  it('the model’s markdown stays inside its block; the real code and Run are on top', async () => {
    ui.aut.llm.enqueue({ kind: 'tool', text: MARKDOWN, calls: [cellCall('call_1')] }, { kind: 'text', text: 'Done.' });
    await sendMessage(ui.page, 'List the files');
    await expectAttribute(ui.page.getByTestId('cell').last(), 'data-status', 'awaiting-approval');
    const markdown = ui.page.getByTestId('assistant-message').last().locator(RENDERED);
    await expectText(markdown, 'overlay-style');
    // What the sanitiser let through: nothing that positions, layers or borrows the app's classes.
    const leftovers = await markdown.evaluate((el) => el.querySelectorAll('[style], [class*="modal"], [popover], [id], dialog').length);
    expect(leftovers).toBe(0);
    await expectCardOnTop(ui.page, 'attack-markdown-overlay-model.png');
  });

  it('a second layer holds: the same HTML placed inside the markdown block unsanitised stays in the block', async () => {
    ui.aut.llm.enqueue({ kind: 'tool', text: 'Plain words.', calls: [cellCall('call_2')] }, { kind: 'text', text: 'Done.' });
    await sendMessage(ui.page, 'List the files');
    await expectAttribute(ui.page.getByTestId('cell').last(), 'data-status', 'awaiting-approval');
    // Containment and clipping on .markdown, with the sanitiser out of the way (the popover's top layer
    // is beyond any CSS, which is why the sanitiser drops the attribute: not repeated here).
    await ui.page
      .getByTestId('assistant-message')
      .last()
      .locator(RENDERED)
      .evaluate(
        (el, html) => el.insertAdjacentHTML('beforeend', html),
        OVERLAYS.style + OVERLAYS.class + OVERLAYS.dialog + '<p>overlay-extra</p>',
      );
    // Their boxes may reach past the block (a fixed layer sized to it, plus padding), but nothing is drawn there.
    const report = await probe(ui.page);
    expect(report.found.length).toBeGreaterThanOrEqual(4);
    expect(report).toMatchObject({ code: 'card', run: 'card', drawnOutside: [], topLayer: false });

    // The card draws above the message parts the app itself positions over the next item (the hover
    // actions strip sits at z-index 2 below its message): a strip as tall as the window, there, is under it.
    await ui.page
      .getByTestId('assistant-message')
      .last()
      .evaluate((el) => {
        const strip = document.createElement('div');
        strip.textContent = 'overlay-strip';
        Object.assign(strip.style, {
          position: 'absolute',
          left: '0',
          right: '0',
          top: '100%',
          height: '2000px',
          zIndex: '2',
          background: '#fff',
        });
        el.append(strip);
      });
    expect(await probe(ui.page)).toMatchObject({ code: 'card', run: 'card' });
  });

  it('twin: the same HTML in the page without the protections covers the card, and Run still works through it', async () => {
    ui.aut.llm.enqueue({ kind: 'tool', text: 'Plain words.', calls: [cellCall('call_3')] }, { kind: 'text', text: 'Done.' });
    await sendMessage(ui.page, 'List the files');
    const cell = ui.page.getByTestId('cell').last();
    await expectAttribute(cell, 'data-status', 'awaiting-approval');
    const run = cell.getByRole('button', { name: 'Run', exact: true });
    await run.scrollIntoViewIfNeeded();
    const box = await run.boundingBox();
    if (!box) throw new Error('Run has no box');
    // Beside the markdown block, in the same message: where it would be with no sanitiser and no containment.
    await ui.page
      .getByTestId('assistant-message')
      .last()
      .evaluate((el, html) => el.insertAdjacentHTML('beforeend', html), OVERLAYS.style);
    const report = await probe(ui.page);
    expect(report.code).toMatch(/^other: overlay-style/);
    expect(report.run).toMatch(/^other: overlay-style/);
    expect(report.escaped).toContain(`overlay-style: ${FAKE}`);
    expect(report.drawnOutside).toContain(`overlay-style: ${FAKE}`);
    await shot(ui.page, 'attack-markdown-overlay-twin.png');
    // The user clicks what looks like harmless text; the real Run underneath gets the click.
    await ui.page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expectAttribute(cell, 'data-status', 'done', 20_000);
    await expectText(ui.page.getByTestId('terminal').last(), 'REAL-PENDING-CODE');

    // And the class-only and popover vectors are real too, as written, outside the block.
    ui.aut.llm.enqueue({ kind: 'tool', text: 'More words.', calls: [cellCall('call_4')] }, { kind: 'text', text: 'Done.' });
    await sendMessage(ui.page, 'Again');
    await expectAttribute(ui.page.getByTestId('cell').last(), 'data-status', 'awaiting-approval');
    await ui.page.evaluate(() => document.querySelectorAll('[data-testid="assistant-message"] > div[style]').forEach((el) => el.remove()));
    await ui.page
      .getByTestId('assistant-message')
      .last()
      .evaluate((el, html) => el.insertAdjacentHTML('beforeend', html), OVERLAYS.class);
    expect((await probe(ui.page)).code).toMatch(/^other: overlay-class/);
    await ui.page.evaluate(() => document.querySelectorAll('.modal-backdrop').forEach((el) => el.remove()));
    await ui.page
      .getByTestId('assistant-message')
      .last()
      .evaluate((el, html) => el.insertAdjacentHTML('beforeend', html), OVERLAYS.popover);
    await clickPopoverOpeners(ui.page);
    const popped = await probe(ui.page);
    expect(popped.topLayer).toBe(true);
    expect(popped.drawnOutside).toContain(`overlay-popover: ${FAKE}`);
  });

  it('an imported notebook’s markdown cell stays inside its block', async () => {
    const notebook = notebookOf([{ id: 'm1', cell_type: 'markdown', metadata: {}, source: `# Overlay notebook\n\n${MARKDOWN}` }]);
    await ui.page.getByRole('button', { name: 'Notebook', exact: true }).click();
    const [chooser] = await Promise.all([
      ui.page.waitForEvent('filechooser'),
      ui.page.getByRole('menuitem', { name: 'Import notebook…' }).click(),
    ]);
    await chooser.setFiles({ name: 'overlay.ipynb', mimeType: 'application/x-ipynb+json', buffer: Buffer.from(JSON.stringify(notebook)) });
    await expectText(ui.page.getByTestId('assistant-message').first(), 'overlay-style');
    ui.aut.llm.enqueue({ kind: 'tool', text: 'Running it.', calls: [cellCall('call_nb')] }, { kind: 'text', text: 'Done.' });
    await sendMessage(ui.page, 'Run the notebook');
    await expectAttribute(ui.page.getByTestId('cell').last(), 'data-status', 'awaiting-approval');
    await expectCardOnTop(ui.page, 'attack-markdown-overlay-notebook.png');
  });

  it('a previewed notebook’s markdown cell and text/markdown output stay inside their blocks', async () => {
    const workspace = await workspaceAfterHello(ui);
    const output = {
      output_type: 'display_data',
      metadata: {},
      data: { 'text/markdown': `${OVERLAYS.popover}\n\n${OVERLAYS.dialog}`, 'text/plain': 'md' },
    };
    const notebook = notebookOf([
      { id: 'm1', cell_type: 'markdown', metadata: {}, source: `${OVERLAYS.style}\n\n${OVERLAYS.class}` },
      { id: 'c1', cell_type: 'code', metadata: {}, execution_count: 1, source: 'show()', outputs: [output] },
    ]);
    writeFileSync(path.join(workspace, 'overlay.ipynb'), JSON.stringify(notebook));
    const row = ui.page.locator('[role="treeitem"][data-path="overlay.ipynb"]');
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    await row.getByRole('button', { name: 'overlay.ipynb' }).click();
    await expectText(ui.page.getByTestId('notebook-preview'), 'overlay-popover');
    ui.aut.llm.enqueue({ kind: 'tool', text: 'Running it.', calls: [cellCall('call_pv')] }, { kind: 'text', text: 'Done.' });
    await sendMessage(ui.page, 'Run something');
    await expectAttribute(ui.page.getByTestId('cell').last(), 'data-status', 'awaiting-approval');
    await expectCardOnTop(ui.page, 'attack-markdown-overlay-preview.png');
  });
});
