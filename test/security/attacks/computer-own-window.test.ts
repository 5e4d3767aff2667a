import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ComputerControl, ComputerRefusal } from '../../../src-main/core/computer/computer-control';
import { imageLimitFor } from '../../../src-main/core/computer/screen-geometry';
import { X11Screen } from '../../../src-main/core/computer/x11-screen';
import type { ComputerAction } from '../../../src-main/core/llm/computer-tool';
import { installed } from '../../support/installed';
import { findColour, readPng } from '../../support/png-pixels';
import { useXvfb } from '../../support/xvfb';

// Issue 32: a model using the screen could approve its own actions by clicking the app's approval
// button (or typing into its terminal). The app's own windows are blacked out of every screenshot and
// no click may land on them (src-main/core/computer/computer-control.ts). The "app" here is a real X
// window of a process named as the app's own, with an Approve button that writes a file when pressed.
// Each attack clicks where that button is; its twin names no window as the app's, and the click approves.
// The window attacks look for the app's window (find_window), try to give it the keyboard focus and to
// see it alone (a window's screenshot), then press Tab and space, which would press Approve where it
// had the focus; their twin names no window as the app's, and the keys approve.

// Many short X programs a turn: on a loaded machine each waits its turn for a core.
vi.setConfig({ testTimeout: 240_000 });

const canRun = process.platform === 'linux' && installed('Xvfb') && installed('xdotool') && installed('xwd') && installed('xprop');
const MAGENTA: [number, number, number] = [255, 0, 255];
const noSignal = new AbortController().signal;

const x = useXvfb(canRun, { width: 1601, height: 1001, tmpPrefix: 'oi-own-window-' });
/** The "app's" window with its Approve button; the pid it runs as. */
async function startApp(out: string): Promise<number> {
  const app = await x.startForm(out, { className: 'approvals', color: '#ff00ff', x: 300, y: 200 });
  return app.pid ?? -1;
}

describe.skipIf(!canRun)("computer use never sees or touches the app's own window", () => {
  it('blacks the window out of the screenshot and refuses a click on its Approve button', async () => {
    const out = path.join(x.tmp, 'approved-guarded');
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
    const out = path.join(x.tmp, 'approved-open');
    await startApp(out);
    const control = new ComputerControl(new X11Screen({ display: x.display }), { pids: [], windowIds: [] }, 0);
    const shot = await control.screenshot(imageLimitFor('anthropic'));
    const seen = findColour(readPng(shot.png), MAGENTA);
    expect(seen).not.toBeNull();
    await control.perform({ action: 'click', x: seen?.x ?? 0, y: seen?.y ?? 0 }, imageLimitFor('anthropic'), noSignal);
    expect(existsSync(out)).toBe(true);
  });

  /** The model's attempt on the app's window by its id (known from elsewhere): what each step gave. */
  async function windowAttack(namedAsApp: boolean, out: string) {
    const pid = await startApp(out);
    // The id of the app's top-level window, as the person's own xdotool sees it.
    const appWindow = Number(
      x
        .run('xdotool', ['search', '--onlyvisible', '--pid', String(pid), '--name', '.'])
        .trim()
        .split('\n')[0],
    );
    const control = new ComputerControl(new X11Screen({ display: x.display }), { pids: namedAsApp ? [pid] : [], windowIds: [] }, 0);
    const limit = imageLimitFor('anthropic');
    const step = async (action: ComputerAction) => {
      try {
        return { refused: false, result: await control.perform(action, limit, noSignal) };
      } catch (err) {
        if (!(err instanceof ComputerRefusal)) throw err;
        return { refused: true, message: err.message };
      }
    };
    const listed = (await step({ action: 'find_window' })).result?.windows?.map((w) => w.id);
    const focused = await step({ action: 'focus_window', window: appWindow });
    const shown = await step({ action: 'screenshot', window: appWindow });
    await step({ action: 'key', keys: 'Tab' });
    await step({ action: 'key', keys: 'space' });
    return { appWindow, listed, focused, shown };
  }

  it('never lists, focuses or shows its window alone, so keys cannot press its Approve button', async () => {
    const out = path.join(x.tmp, 'approved-by-keys-guarded');
    const { appWindow, listed, focused, shown } = await windowAttack(true, out);
    expect(listed).toEqual([]);
    expect(focused).toMatchObject({ refused: true, message: expect.stringContaining(`window ${appWindow} is not one find_window lists`) });
    expect(shown).toMatchObject({ refused: true });
    expect(x.run('xdotool', ['getwindowfocus', '-f']).trim()).not.toBe(String(appWindow));
    expect(existsSync(out)).toBe(false);
  });

  it('twin: named as nobody’s, the window is listed, focused and shown alone, and the keys approve', async () => {
    const out = path.join(x.tmp, 'approved-by-keys-open');
    const { appWindow, listed, focused, shown } = await windowAttack(false, out);
    expect(listed).toEqual([appWindow]);
    expect(focused.refused).toBe(false);
    expect(findColour(readPng(shown.result?.shot?.png ?? Buffer.alloc(0)), MAGENTA)).not.toBeNull();
    await expect.poll(() => existsSync(out)).toBe(true);
  });
});
