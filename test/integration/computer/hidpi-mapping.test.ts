import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ComputerControl } from '../../../src-main/core/computer/computer-control';
import { imageLimitFor } from '../../../src-main/core/computer/screen-geometry';
import { X11Screen } from '../../../src-main/core/computer/x11-screen';
import { installed } from '../../support/installed';
import { findColour, readPng } from '../../support/png-pixels';
import { useXvfb } from '../../support/xvfb';

// Issue 32's HiDPI mapping (docs/computer-use.md#the-screenshot-and-the-coordinates): an X server the
// size of a 16-inch HiDPI laptop's panel at 192 dpi, so Tk draws the form at twice its size as it would
// there, and Anthropic's limit scales the screenshot down to under half. The clicks aim at the form's
// parts where they are in that scaled image; the form's file says whether they landed.

vi.setConfig({ testTimeout: 240_000 });

const canRun = process.platform === 'linux' && installed('Xvfb') && installed('xdotool') && installed('xwd');
const SCREEN = { width: 3200, height: 2000 };
const noSignal = new AbortController().signal;

const x = useXvfb(canRun, { ...SCREEN, dpi: 192, tmpPrefix: 'oi-hidpi-' });

describe.skipIf(!canRun)('computer use on a HiDPI screen', () => {
  it('fills the form by clicking where its parts are in the scaled screenshot (3200×2000 at 192 dpi)', async () => {
    const out = path.join(x.tmp, 'form.json');
    await x.startForm(out, { x: 1300, y: 700 });
    const control = new ComputerControl(new X11Screen({ display: x.display }), { pids: [], windowIds: [] });
    const limit = imageLimitFor('anthropic');
    const shot = await control.screenshot(limit);
    // Scaled down by a factor that is not a whole number, as the model gets it.
    expect(shot).toMatchObject({ realWidth: SCREEN.width, realHeight: SCREEN.height });
    expect(shot.width).toBeLessThanOrEqual(1568);
    expect(SCREEN.width / shot.width).not.toBe(Math.round(SCREEN.width / shot.width));
    const image = readPng(shot.png);
    const [field, box, submit] = [
      [255, 0, 0],
      [0, 255, 0],
      [0, 0, 255],
    ].map((c) => findColour(image, c as [number, number, number]));
    if (!field || !box || !submit) throw new Error('the form is not in the screenshot');
    // Tk drew it at 192 dpi: its text field is wider than it would be at 96 dpi (about 250 real pixels there).
    expect((field.x1 - field.x0) * (SCREEN.width / shot.width)).toBeGreaterThan(300);

    // The actions alone (a turn answers each with a new screenshot; the form does not move here). X
    // delivers the form its events in order, so the field has the focus before the keys arrive.
    await control.act({ action: 'click', x: field.x, y: field.y }, noSignal);
    await control.act({ action: 'type', text: 'sharp at 2x' }, noSignal);
    await control.act({ action: 'click', x: box.x, y: box.y }, noSignal);
    await control.act({ action: 'click', x: submit.x, y: submit.y }, noSignal);
    await expect.poll(() => existsSync(out)).toBe(true);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ text: 'sharp at 2x', checked: true });
  });
});
