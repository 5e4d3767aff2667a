import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startScriptedLlm, type ScriptedLlm, type ScriptedReply } from '../fixtures/llm-server';
import { installed } from '../support/installed';
import { expectAttribute, expectText } from '../support/page-expect';
import { findColour, lastScreenshot } from '../support/png-pixels';
import { useUiApp } from '../support/ui-fixture';
import { currentConversation, sendMessage, shot } from '../support/ui-harness';
import { startXvfb, type Xvfb } from '../support/xvfb';

// Computer use in the window (docs/computer-use.md#under-the-persons-eye): Settings says whether it can
// work and why not; the composer's switch turns it on for this conversation only; while the agent has
// the screen a banner shows each action as it is asked for and done, with Stop; each screenshot stays
// in its cell as an image. A real X server (Xvfb), a real X program (the Tk form), the scripted model
// aiming where it finds the form's parts in the screenshot it was sent.

// Many short X programs a turn, and approvals through the page: on a loaded machine each waits for a core.
vi.setConfig({ testTimeout: 240_000 });

const canRun = process.platform === 'linux' && installed('Xvfb') && installed('xdotool') && installed('xwd');
const RED: [number, number, number] = [255, 0, 0];
const GREEN: [number, number, number] = [0, 255, 0];
const BLUE: [number, number, number] = [0, 0, 255];

const call = (args: Record<string, unknown>): ScriptedReply => ({ kind: 'tool', calls: [{ name: 'computer', arguments: args }] });

describe.skipIf(!canRun)('computer use in the window', () => {
  let x: Xvfb;
  let llm: ScriptedLlm;
  let tmp: string;
  let planned = false;
  beforeAll(async () => {
    x = await startXvfb(1280, 800);
    tmp = mkdtempSync(path.join(os.tmpdir(), 'oi-ui-computer-'));
    llm = await startScriptedLlm({
      // Once the model has seen a screenshot, it works the form where it finds its parts in that image.
      onRequest: (request) => {
        if (planned || request.protocol === 'other' || !JSON.stringify(request.body).includes('image_url')) return;
        planned = true;
        const shot = lastScreenshot(request);
        const [field, box, submit] = [findColour(shot, RED), findColour(shot, GREEN), findColour(shot, BLUE)];
        if (!field || !box || !submit) throw new Error('the form is not in the screenshot');
        llm.enqueue(
          {
            kind: 'tool',
            calls: [
              { name: 'computer', arguments: { action: 'click', x: field.x, y: field.y } },
              { name: 'computer', arguments: { action: 'type', text: 'typed under the banner' } },
              { name: 'computer', arguments: { action: 'click', x: box.x, y: box.y } },
              { name: 'computer', arguments: { action: 'click', x: submit.x, y: submit.y } },
            ],
          },
          { kind: 'text', text: 'The form is sent.' },
        );
      },
    });
  });
  afterAll(async () => {
    await llm?.close();
    await x?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });
  const ui = useUiApp(() => ({ llm, settings: { model: 'gpt-4o' }, screenEnv: { DISPLAY: x.display } }), {
    start: 'once',
    newConversation: true,
  });

  it('says in Settings why not, is turned on per conversation, shows each action in a banner with Stop, and keeps the screenshots', async () => {
    const p = ui.page;
    const out = path.join(tmp, 'form.json');
    await x.startForm(out);
    const support = p.getByTestId('computer-support');
    const model = p.getByRole('textbox', { name: 'Model', exact: true });
    const toggle = p.getByTestId('computer-switch');

    // Settings: available with a model that sees images; with one that does not, it says why, and the switch stays off.
    await p.getByRole('button', { name: 'Settings' }).click();
    await expectText(support, 'Available here, with gpt-4o.');
    await model.fill('gpt-4');
    await model.press('Enter');
    await expectText(support, 'The model gpt-4 does not accept images');
    await p.getByRole('button', { name: 'Chat' }).click();
    await expectAttribute(toggle, 'aria-disabled', 'true');
    expect(await toggle.getAttribute('title')).toContain('gpt-4 does not accept images');
    await toggle.click({ force: true }); // clicked anyway: nothing turns on
    await expectAttribute(toggle, 'aria-checked', 'false');
    await p.getByRole('button', { name: 'Settings' }).click();
    await model.fill('gpt-4o');
    await model.press('Enter');
    await expectText(support, 'Available here, with gpt-4o.');
    await p.getByRole('button', { name: 'Chat' }).click();

    // On for this conversation only, saved with it.
    await toggle.click();
    await expectAttribute(toggle, 'aria-checked', 'true');
    const { id } = await currentConversation(ui.aut);
    expect((await ui.aut.app.context.agent.snapshot(id)).computerUse).toBe(true);

    // The turn: the banner names each action as it is asked for; the person approves in the cell.
    llm.enqueue(call({ action: 'screenshot' }));
    await sendMessage(p, 'Fill in the form and send it.');
    const banner = p.getByTestId('computer-banner');
    // The cell asking (a reply's several calls are all listed at once; they are asked for one by one).
    const asking = p.locator('[data-testid="cell"][aria-label="computer cell, awaiting-approval"]');
    await expectText(banner, 'The agent is controlling your screen.', 30_000);
    await expectText(banner, 'Take a screenshot — waiting for your approval', 30_000);
    await asking.getByRole('button', { name: 'Run', exact: true }).click();
    await expectText(banner, /Click at \(\d+, \d+\) — waiting for your approval/, 60_000);
    // The README's picture of it (docs/computer-use.png is a copy of this one).
    await shot(p, 'ui-computer-banner.png');
    // "Allow for this task": the rest of this turn's actions run unasked.
    await asking.getByRole('button', { name: 'Allow for this task' }).click();
    await expect.poll(() => existsSync(out), { timeout: 120_000 }).toBe(true);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ text: 'typed under the banner', checked: true });
    // The banner goes when the turn gives the screen back.
    await expect.poll(() => banner.count(), { timeout: 60_000 }).toBe(0);

    const done = (await ui.aut.app.context.agent.snapshot(id)).items;
    expect(done.filter((i) => i.kind === 'cell').map((c) => c.kind === 'cell' && c.status)).toEqual([
      'done',
      'done',
      'done',
      'done',
      'done',
    ]);
    expect(done.at(-1)).toMatchObject({ kind: 'assistant', text: 'The form is sent.' });

    // Each action's cell keeps its screenshot, shown as an image (the list draws the cells near the end).
    const cells = p.getByTestId('cell');
    const image = cells.last().getByTestId('output-image');
    await expect.poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(1280);

    // The banner's Stop ends an action at once: a wait of 10 s, stopped while it is being done.
    llm.enqueue(call({ action: 'wait', seconds: 10 }), { kind: 'text', text: 'never reached' });
    await sendMessage(p, 'Wait a little.');
    await expectText(banner, 'Wait 10 s — waiting for your approval', 30_000);
    // Approved with Ctrl+Enter (the waiting cell's shortcut): the list may not have scrolled it into view past the screenshots.
    await p.keyboard.press('Control+Enter');
    await expectText(banner, 'Wait 10 s — doing it now', 30_000);
    await banner.getByRole('button', { name: 'Stop computer use' }).click();
    await expect.poll(() => banner.count(), { timeout: 30_000 }).toBe(0);

    const after = (await ui.aut.app.context.agent.snapshot(id)).items;
    expect(after.filter((i) => i.kind === 'cell').at(-1)).toMatchObject({ status: 'interrupted' });
    expect(after.some((i) => i.kind === 'assistant' && i.text === 'never reached')).toBe(false);
  });
});
