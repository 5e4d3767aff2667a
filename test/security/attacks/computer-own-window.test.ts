import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ComputerControl, ComputerRefusal } from '../../../src-main/core/computer/computer-control';
import { imageLimitFor } from '../../../src-main/core/computer/screen-geometry';
import { X11Screen } from '../../../src-main/core/computer/x11-screen';
import { installed } from '../../support/installed';
import { findColour, readPng } from '../../support/png-pixels';
import { startXvfb, type Xvfb } from '../../support/xvfb';

// Issue 32: a model using the screen could approve its own actions by clicking the app's approval
// button (or typing into its terminal). The app's own windows are blacked out of every screenshot and
// no click may land on them (src-main/core/computer/computer-control.ts). The "app" here is a real X
// window of a process named as the app's own, with an Approve button that writes a file when pressed.
// Each attack clicks where that button is; its twin names no window as the app's, and the click approves.

// Many short X programs a turn: on a loaded machine each waits its turn for a core.
vi.setConfig({ testTimeout: 240_000 });

const canRun = process.platform === 'linux' && installed('Xvfb') && installed('xdotool') && installed('xwd');
const MAGENTA: [number, number, number] = [255, 0, 255];
const noSignal = new AbortController().signal;

let x: Xvfb;
let tmp: string;
let app: ChildProcess | null = null;

beforeAll(async () => {
  if (!canRun) return;
  x = await startXvfb(1601, 1001);
  tmp = mkdtempSync(path.join(os.tmpdir(), 'oi-own-window-'));
});
afterAll(async () => {
  if (!canRun) return;
  await x.close();
  rmSync(tmp, { recursive: true, force: true });
});
afterEach(() => {
  app?.kill();
  app = null;
});

/** The "app's" window with its Approve button; the pid it runs as. */
async function startApp(out: string): Promise<number> {
  app = await x.startForm(out, { className: 'approvals', color: '#ff00ff', x: 300, y: 200 });
  return app.pid ?? -1;
}

describe.skipIf(!canRun)("computer use never sees or touches the app's own window", () => {
  it('blacks the window out of the screenshot and refuses a click on its Approve button', async () => {
    const out = path.join(tmp, 'approved-guarded');
    const pid = await startApp(out);
    const control = new ComputerControl(new X11Screen({ display: x.display }), { pids: [pid], windowIds: [] }, 0);
    const shot = await control.screenshot(imageLimitFor('anthropic'));
    expect(findColour(readPng(shot.png), MAGENTA)).toBeNull();
    // The model aims where the window is (known from elsewhere: it cannot see it).
    const aim = { x: Math.round((400 * shot.width) / shot.realWidth), y: Math.round((300 * shot.height) / shot.realHeight) };
    await expect(control.perform({ action: 'click', ...aim }, imageLimitFor('anthropic'), noSignal)).rejects.toThrow(ComputerRefusal);
    expect(existsSync(out)).toBe(false);
  });

  it('twin: named as nobody’s, the window is seen and the click approves', async () => {
    const out = path.join(tmp, 'approved-open');
    await startApp(out);
    const control = new ComputerControl(new X11Screen({ display: x.display }), { pids: [], windowIds: [] }, 0);
    const shot = await control.screenshot(imageLimitFor('anthropic'));
    const seen = findColour(readPng(shot.png), MAGENTA);
    expect(seen).not.toBeNull();
    await control.perform({ action: 'click', x: seen?.x ?? 0, y: seen?.y ?? 0 }, imageLimitFor('anthropic'), noSignal);
    expect(existsSync(out)).toBe(true);
  });
});
