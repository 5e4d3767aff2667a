import { describeAction, type ComputerAction } from '../llm/computer-tool';
import { outsideScreenshot, scaledSize, scaledToReal, type ImageLimit, type Size } from './screen-geometry';
import { blackOut, drawPointer, encodePng, scaleDown, type Rect } from './screen-image';
import type { X11Screen } from './x11-screen';

/** A screenshot as the model gets it, and the real screen it stands for. */
export interface Screenshot {
  png: Buffer;
  width: number;
  height: number;
  realWidth: number;
  realHeight: number;
}

/** An action not done, and why: the model is told, nothing touched the screen. */
export class ComputerRefusal extends Error {}

/** The person's stop gesture: the pointer in a screen corner. The turn stops; nothing more is done. */
export class CornerStop extends Error {
  constructor() {
    super('Computer use stopped: the pointer was held in a corner of the screen.');
  }
}

/** The app's own windows: by the processes that own them (the desktop app's), or by id (oi's terminal, WINDOWID). */
export interface OwnWindows {
  pids: readonly number[];
  windowIds: readonly string[];
}

/** Pixels from a corner that count as "in the corner" for the stop gesture. */
export const CORNER_ZONE = 2;

export function inCorner(p: { x: number; y: number }, screen: Size): boolean {
  const left = p.x < CORNER_ZONE;
  const right = p.x >= screen.width - CORNER_ZONE;
  const top = p.y < CORNER_ZONE;
  const bottom = p.y >= screen.height - CORNER_ZONE;
  return (left || right) && (top || bottom);
}

/**
 * One conversation's hands on the screen: each action checked (the screen not locked, the point inside
 * the last screenshot, not on the app's own window, not into a corner — the corners are the person's
 * stop gesture), done, and answered with a new screenshot from which the app's own windows are blacked
 * out (so the model never sees, nor aims at, its own approval buttons).
 */
export class ComputerControl {
  /** The sizes of the last screenshot the model was given: its coordinates are pixels of that image. */
  private shown: { scaled: Size; real: Size } | null = null;

  constructor(
    readonly screen: X11Screen,
    private readonly own: OwnWindows,
    /** How long the screen gets to redraw after an action before the screenshot (not a synchronisation: what the person would see). */
    private readonly settleMs = 150,
  ) {}

  async perform(action: ComputerAction, limit: ImageLimit, signal: AbortSignal): Promise<{ done: string; shot: Screenshot }> {
    const done = await this.act(action, signal);
    if (action.action !== 'screenshot' && action.action !== 'wait') await abortableDelay(this.settleMs, signal);
    return { done, shot: await this.screenshot(limit) };
  }

  /** The action alone, checked and done (perform answers it with a screenshot); what it did, in words. */
  async act(action: ComputerAction, signal: AbortSignal): Promise<string> {
    // The agent never moves the pointer into a corner (realPoint refuses it), so one there is the person's.
    // One query of the xdotool shell looks at the pointer, the size, the app's windows and any locker's
    // window; the screen saver's state (another program) is asked beside it.
    const [seen, saver] = await Promise.all([this.screen.look(this.own.pids, this.own.windowIds), this.screen.lockedReason()]);
    const ownRects = seen.ownRects;
    if (inCorner(seen.pointer, this.shown ? this.shown.real : seen.size)) throw new CornerStop();
    const locked = saver ?? (seen.lockerShown ? 'a screen locker’s window is on the screen' : null);
    if (locked) throw new ComputerRefusal(`Not done: the screen is locked (${locked}). Computer use never acts on a locked screen.`);
    const at = async (x: number, y: number) => this.realPoint({ x, y }, ownRects);
    switch (action.action) {
      case 'screenshot':
        break;
      case 'move': {
        const p = await at(action.x, action.y);
        await this.screen.move(p.x, p.y);
        break;
      }
      case 'click':
      case 'double_click':
      case 'right_click': {
        const p = await at(action.x, action.y);
        await this.screen.clickAt(p.x, p.y, action.action === 'right_click' ? 'right' : 'left', action.action === 'double_click' ? 2 : 1);
        break;
      }
      case 'drag': {
        const from = await at(action.x, action.y);
        const to = await at(action.to_x, action.to_y);
        await this.screen.drag(from, to);
        break;
      }
      case 'scroll': {
        const p = await at(action.x, action.y);
        await this.screen.scrollAt(p.x, p.y, action.direction, action.amount);
        break;
      }
      case 'type':
      case 'key': {
        const focused = await this.screen.focusedWindow();
        if (focused && (await this.screen.ownWindowIds(this.own.pids, this.own.windowIds)).has(focused))
          throw new ComputerRefusal("Not done: the focused window is this app's own, which computer use may not type into.");
        if (action.action === 'type') await this.screen.type(action.text);
        else await this.screen.key(action.keys);
        break;
      }
      case 'wait':
        await abortableDelay(action.seconds * 1000, signal);
        break;
    }
    return describeAction(action);
  }

  /** The whole screen, the app's windows blacked out, scaled to the limit, the pointer drawn. */
  async screenshot(limit: ImageLimit): Promise<Screenshot> {
    const [image, seen] = await Promise.all([this.screen.capture(), this.screen.look(this.own.pids, this.own.windowIds)]);
    const pointer = seen.pointer;
    blackOut(image, seen.ownRects);
    const real = { width: image.width, height: image.height };
    const scaled = scaleDown(image, scaledSize(real, limit));
    drawPointer(scaled, pointer, real);
    this.shown = { scaled: { width: scaled.width, height: scaled.height }, real };
    return { png: encodePng(scaled), width: scaled.width, height: scaled.height, realWidth: real.width, realHeight: real.height };
  }

  /** Where a point of the last screenshot is on the screen, or a refusal saying why it may not be used. */
  private realPoint(p: { x: number; y: number }, ownRects: readonly Rect[]): { x: number; y: number } {
    if (!this.shown) throw new ComputerRefusal('Not done: take a screenshot first; coordinates are pixels of the latest screenshot.');
    const outside = outsideScreenshot(p, this.shown.scaled);
    if (outside) throw new ComputerRefusal(`Not done: ${outside}.`);
    const real = scaledToReal(p, this.shown.scaled, this.shown.real);
    if (ownRects.some((r) => real.x >= r.x && real.x < r.x + r.width && real.y >= r.y && real.y < r.y + r.height))
      throw new ComputerRefusal(`Not done: (${p.x}, ${p.y}) is on this app's own window, which computer use may not touch.`);
    if (inCorner(real, this.shown.real))
      throw new ComputerRefusal(
        `Not done: (${p.x}, ${p.y}) is a corner of the screen, which is the person's gesture to stop computer use.`,
      );
    return real;
  }
}

function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
