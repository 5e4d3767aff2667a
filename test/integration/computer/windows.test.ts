import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ComputerControl, type ListedWindow, type Screenshot } from '../../../src-main/core/computer/computer-control';
import { scaledSize, type ImageLimit } from '../../../src-main/core/computer/screen-geometry';
import { X11Screen } from '../../../src-main/core/computer/x11-screen';
import type { ComputerAction } from '../../../src-main/core/llm/computer-tool';
import { installed } from '../../support/installed';
import { findColour, readPng } from '../../support/png-pixels';
import { useXvfb } from '../../support/xvfb';

// find_window, focus_window and the screenshot of one window (docs/computer-use.md#windows), on a real
// X server with two real forms (test/fixtures/computer/tk-form.py) of different titles and classes.
// Whether the focus went where it was sent is told by the form that writes what was typed into it;
// whether a window's screenshot maps exactly onto the screen, by clicks aimed in it.

vi.setConfig({ testTimeout: 240_000 });

const canRun =
  process.platform === 'linux' &&
  installed('Xvfb') &&
  installed('xdotool') &&
  installed('xwd') &&
  installed('xprop') &&
  installed('xwininfo');
const SCREEN = { width: 1601, height: 1001 };
const RED: [number, number, number] = [255, 0, 0];
const GREEN: [number, number, number] = [0, 255, 0];
const BLUE: [number, number, number] = [0, 0, 255];
const noSignal = new AbortController().signal;
/** No scaling: the screenshot is the screen's (or the window's) own pixels. */
const UNSCALED: ImageLimit = { maxEdge: 100_000, maxPixels: 1e12 };

const x = useXvfb(canRun, { ...SCREEN, tmpPrefix: 'oi-windows-' });
let control: ComputerControl;
let screen: X11Screen;
afterEach(() => screen?.close());

/** Two forms, away from the middle of the screen where the pointer rests (without a window manager the keys go where the focus is set, else under the pointer). */
async function twoForms(only?: 'first'): Promise<{ first: string; second: string }> {
  const first = path.join(x.tmp, `first-${Date.now()}.json`);
  const second = path.join(x.tmp, `second-${Date.now()}.json`);
  await x.startForm(first, { x: 100, y: 80, title: 'Invoices — first form' });
  if (only !== 'first') await x.startForm(second, { x: 1100, y: 700, title: 'Second form', className: 'secondform' });
  screen = new X11Screen({ display: x.display });
  control = new ComputerControl(screen, { pids: [], windowIds: [] }, 0);
  return { first, second };
}

/** An action and the screenshot that answers it. */
async function shoot(action: ComputerAction, limit: ImageLimit): Promise<Screenshot> {
  const { shot } = await control.perform(action, limit, noSignal);
  if (!shot) throw new Error(`${action.action} was answered without a screenshot`);
  return shot;
}

async function found(action: Extract<ComputerAction, { action: 'find_window' }>): Promise<ListedWindow[]> {
  const { windows } = await control.perform(action, UNSCALED, noSignal);
  return windows ?? [];
}

async function act(...actions: ComputerAction[]): Promise<void> {
  for (const action of actions) await control.act(action, noSignal);
}

describe.skipIf(!canRun)('windows: find, focus, and a screenshot of one', () => {
  it('finds two forms by title and class, focuses each in turn and fills it from the keyboard', async () => {
    const out = await twoForms();
    const all = await found({ action: 'find_window' });
    expect(all.map((w) => [w.title, w.class])).toEqual(
      expect.arrayContaining([
        ['Invoices — first form', 'Tkform'],
        ['Second form', 'Secondform'],
      ]),
    );
    expect(all).toHaveLength(2);
    const [second] = await found({ action: 'find_window', title: 'SECOND' });
    const byClass = await found({ action: 'find_window', class: 'secondform' });
    const [first] = await found({ action: 'find_window', class: 'tkform' });
    expect(byClass.map((w) => w.id)).toEqual([second?.id]);
    expect(first?.title).toBe('Invoices — first form');
    expect(await found({ action: 'find_window', title: 'second', class: 'tkform' })).toEqual([]);
    if (!first || !second) throw new Error('a form was not found');

    // The focus on the second form: Tab to its field, type, Tab to the box, tick it, Tab to Submit, press it.
    const fill = (text: string): ComputerAction[] => [
      { action: 'key', keys: 'Tab' },
      { action: 'type', text },
      { action: 'key', keys: 'Tab' },
      { action: 'key', keys: 'space' },
      { action: 'key', keys: 'Tab' },
      { action: 'key', keys: 'space' },
    ];
    await act({ action: 'focus_window', window: second.id });
    await act(...fill('to the second'));
    await expect.poll(() => existsSync(out.second)).toBe(true);
    expect(JSON.parse(readFileSync(out.second, 'utf8'))).toEqual({ text: 'to the second', checked: true });
    expect(existsSync(out.first)).toBe(false);

    // Then the first: the keys follow the focus.
    await act({ action: 'focus_window', window: first.id });
    await act(...fill('to the first'));
    await expect.poll(() => existsSync(out.first)).toBe(true);
    expect(JSON.parse(readFileSync(out.first, 'utf8'))).toEqual({ text: 'to the first', checked: true });
  });

  it('shows one window alone, cut from the screen and scaled as the screen is, and clicks land where its screenshot shows them', async () => {
    const out = await twoForms();
    const [second] = await found({ action: 'find_window', title: 'Second form' });
    if (!second) throw new Error('the second form was not found');

    // Unscaled, the window's screenshot is the screen's pixels where the window is, exactly.
    const whole = readPng((await shoot({ action: 'screenshot' }, UNSCALED)).png);
    const alone = await shoot({ action: 'screenshot', window: second.id }, UNSCALED);
    expect(alone).toMatchObject({ window: second.id, width: second.width, height: second.height });
    const own = readPng(alone.png);
    for (let row = 0; row < own.height; row++) {
      const from = ((700 + row) * whole.width + 1100) * 3;
      expect(own.rgb.subarray(row * own.width * 3, (row + 1) * own.width * 3).equals(whole.rgb.subarray(from, from + own.width * 3))).toBe(
        true,
      );
    }

    // Scaled by a factor that is not a whole number, as the whole screen would be at that limit.
    const limit: ImageLimit = { maxEdge: 301, maxPixels: 1e9 };
    const shot = await shoot({ action: 'screenshot', window: second.id }, limit);
    expect({ width: shot.width, height: shot.height }).toEqual(scaledSize({ width: second.width, height: second.height }, limit));
    expect(second.width / shot.width).not.toBe(Math.round(second.width / shot.width));
    const image = readPng(shot.png);
    const [field, box, submit] = [findColour(image, RED), findColour(image, GREEN), findColour(image, BLUE)];
    if (!field || !box || !submit) throw new Error('the form is not in its window’s screenshot');
    // Each action is answered with the same window's screenshot: the coordinates stay that image's.
    const clicked = await shoot({ action: 'click', x: field.x, y: field.y }, limit);
    expect(clicked).toMatchObject({ window: second.id, width: shot.width, height: shot.height });
    await act({ action: 'type', text: 'aimed in the window' }, { action: 'click', ...box }, { action: 'click', ...submit });
    await expect.poll(() => existsSync(out.second)).toBe(true);
    expect(JSON.parse(readFileSync(out.second, 'utf8'))).toEqual({ text: 'aimed in the window', checked: true });

    // A whole-screen screenshot gives the screen back.
    const back = await shoot({ action: 'screenshot' }, UNSCALED);
    expect(back.window).toBeUndefined();
    expect(back).toMatchObject({ width: SCREEN.width, height: SCREEN.height });
  });

  it('clicks twice on the same point without waiting (the pointer already there)', async () => {
    const out = await twoForms('first');
    const box = findColour(readPng((await shoot({ action: 'screenshot' }, UNSCALED)).png), GREEN);
    if (!box) throw new Error('no checkbox');
    // Ticked, then unticked: the second click is at the point the first left the pointer on.
    await act({ action: 'click', ...box }, { action: 'click', ...box });
    const submits = findColour(readPng((await shoot({ action: 'screenshot' }, UNSCALED)).png), BLUE);
    await act({ action: 'click', x: submits?.x ?? 0, y: submits?.y ?? 0 });
    await expect.poll(() => existsSync(out.first)).toBe(true);
    expect(JSON.parse(readFileSync(out.first, 'utf8'))).toEqual({ text: '', checked: false });
  });
});
