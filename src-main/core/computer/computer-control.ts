import { describeAction, type ComputerAction } from '../llm/computer-tool';
import { outsideScreenshot, scaledSize, scaledToReal, type ImageLimit, type Size } from './screen-geometry';
import { blackOut, drawPointer, encodePng, scaleDown, wholeScreen, type Rect } from './screen-image';
import type { X11Screen } from './x11-screen';
import { matching, type WindowInfo } from './x11-windows';

/** A screenshot as the model gets it, and the real area it stands for (the screen, or one window's part of it). */
export interface Screenshot {
  png: Buffer;
  width: number;
  height: number;
  realWidth: number;
  realHeight: number;
  /** The window it shows alone; absent for the whole screen. */
  window?: number;
  /** Why it is not of the window the model was looking at (that window went away). */
  note?: string;
}

/** A window as the model (and code) is told of it: its size in real pixels. */
export interface ListedWindow {
  id: number;
  title: string;
  class: string;
  instance: string;
  width: number;
  height: number;
}

/** The last screenshot's image and the real area it shows, whose top left corner is `area.x, area.y` of the screen. */
interface Shown {
  scaled: Size;
  area: Rect;
  screen: Size;
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
  private shown: Shown | null = null;
  /** The window the model is looking at alone (a screenshot of it answers each action), or null: the whole screen. */
  private view: number | null = null;

  constructor(
    readonly screen: X11Screen,
    private readonly own: OwnWindows,
    /** How long the screen gets to redraw after an action before the screenshot (not a synchronisation: what the person would see). */
    private readonly settleMs = 150,
  ) {}

  async perform(
    action: ComputerAction,
    limit: ImageLimit,
    signal: AbortSignal,
  ): Promise<{ done: string; detail?: string; windows?: ListedWindow[]; shot?: Screenshot }> {
    const did = await this.do(action, signal);
    // A list of windows changes nothing on the screen: it is answered with the list alone.
    if (action.action === 'find_window') return did;
    if (action.action !== 'screenshot' && action.action !== 'wait') await abortableDelay(this.settleMs, signal);
    return { ...did, shot: await this.screenshot(limit) };
  }

  /** The action alone, checked and done (perform answers it with a screenshot); what it did, in words. */
  async act(action: ComputerAction, signal: AbortSignal): Promise<string> {
    return (await this.do(action, signal)).done;
  }

  /**
   * The visible windows that are not the app's: neither one of its own (by process, or by id) nor
   * lying wholly inside one of its windows (a child of it, or its toolkit's wrapper, which may carry the
   * title while the process id is on the window inside).
   */
  async windows(): Promise<WindowInfo[]> {
    const [all, seen, ownIds] = await Promise.all([
      this.screen.windows(),
      this.screen.look(this.own.pids, this.own.windowIds),
      this.screen.ownWindowIds(this.own.pids, this.own.windowIds),
    ]);
    const inside = (w: Rect, r: Rect) => w.x >= r.x && w.y >= r.y && w.x + w.width <= r.x + r.width && w.y + w.height <= r.y + r.height;
    return all.filter((w) => !ownIds.has(String(w.id)) && !seen.ownRects.some((r) => inside(w.rect, r)));
  }

  /** A window the model named, if it is one it may use now; else a refusal saying why not. */
  private async listed(id: number): Promise<WindowInfo> {
    const found = (await this.windows()).find((w) => w.id === id);
    if (!found)
      throw new ComputerRefusal(
        `Not done: window ${id} is not one find_window lists now (it closed or is hidden, or it is this app's own, which computer use may not touch).`,
      );
    return found;
  }

  private async do(action: ComputerAction, signal: AbortSignal): Promise<{ done: string; detail?: string; windows?: ListedWindow[] }> {
    // The agent never moves the pointer into a corner (realPoint refuses it), so one there is the person's.
    // One query of the xdotool shell looks at the pointer, the size, the app's windows and any locker's
    // window; the screen saver's state (another program) is asked beside it.
    const [seen, saver] = await Promise.all([this.screen.look(this.own.pids, this.own.windowIds), this.screen.lockedReason()]);
    const ownRects = seen.ownRects;
    if (inCorner(seen.pointer, this.shown ? this.shown.screen : seen.size)) throw new CornerStop();
    const locked = saver ?? (seen.lockerShown ? 'a screen locker’s window is on the screen' : null);
    if (locked) throw new ComputerRefusal(`Not done: the screen is locked (${locked}). Computer use never acts on a locked screen.`);
    const at = async (x: number, y: number) => this.realPoint({ x, y }, ownRects);
    switch (action.action) {
      case 'screenshot':
        // A window's screenshot: only one the model may use. From now on it answers every action.
        if (action.window !== undefined) await this.listed(action.window);
        this.view = action.window ?? null;
        break;
      case 'find_window': {
        const windows = matching(await this.windows(), action).map(listedWindow);
        const lines = windows.map(
          (w) => `- window ${w.id}: ${JSON.stringify(w.title.slice(0, 200))} (class ${JSON.stringify(w.class)}), ${w.width}×${w.height}`,
        );
        const detail = windows.length
          ? `${windows.length} window${windows.length === 1 ? '' : 's'}:\n${lines.join('\n')}\nUse an id with focus_window, or with screenshot to see that window alone.`
          : 'No window matches.';
        return { done: describeAction(action), detail, windows };
      }
      case 'focus_window': {
        await this.listed(action.window);
        if (!(await this.screen.focus(action.window)))
          throw new ComputerRefusal(
            `Not done: window ${action.window} did not take the keyboard focus (the window manager kept it elsewhere).`,
          );
        break;
      }
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
    return { done: describeAction(action) };
  }

  /**
   * The whole screen, or the window the model is looking at alone (its rectangle cut from the screen's
   * capture, so another window over it shows as it would to the person): the app's windows blacked out,
   * scaled to the limit exactly as the whole screen is, the pointer drawn.
   */
  async screenshot(limit: ImageLimit): Promise<Screenshot> {
    const [image, seen, windows] = await Promise.all([
      this.screen.capture(),
      this.screen.look(this.own.pids, this.own.windowIds),
      this.view === null ? null : this.windows(),
    ]);
    blackOut(image, seen.ownRects);
    const screen = { width: image.width, height: image.height };
    let area = wholeScreen(image);
    let note: string | undefined;
    const window = windows?.find((w) => w.id === this.view);
    const part = window && clip(window.rect, screen);
    if (this.view !== null && !part) {
      note = `window ${this.view} is no longer on the screen, so this is the whole screen`;
      this.view = null;
    } else if (part) area = part;
    const scaled = scaleDown(image, area, scaledSize(area, limit));
    const p = seen.pointer;
    if (p.x >= area.x && p.y >= area.y && p.x < area.x + area.width && p.y < area.y + area.height)
      drawPointer(scaled, { x: p.x - area.x, y: p.y - area.y }, area);
    // The capture's pixels are in the scaled image now: its memory can take the next capture.
    this.screen.recycle(image);
    this.shown = { scaled: { width: scaled.width, height: scaled.height }, area, screen };
    return {
      png: encodePng(scaled),
      width: scaled.width,
      height: scaled.height,
      realWidth: area.width,
      realHeight: area.height,
      ...(this.view !== null ? { window: this.view } : {}),
      ...(note ? { note } : {}),
    };
  }

  /** Where a point of the last screenshot is on the screen, or a refusal saying why it may not be used. */
  private realPoint(p: { x: number; y: number }, ownRects: readonly Rect[]): { x: number; y: number } {
    if (!this.shown) throw new ComputerRefusal('Not done: take a screenshot first; coordinates are pixels of the latest screenshot.');
    const outside = outsideScreenshot(p, this.shown.scaled);
    if (outside) throw new ComputerRefusal(`Not done: ${outside}.`);
    // A window's screenshot maps inside its area, whose corner is where the window was on the screen.
    const inArea = scaledToReal(p, this.shown.scaled, this.shown.area);
    const real = { x: this.shown.area.x + inArea.x, y: this.shown.area.y + inArea.y };
    if (ownRects.some((r) => real.x >= r.x && real.x < r.x + r.width && real.y >= r.y && real.y < r.y + r.height))
      throw new ComputerRefusal(`Not done: (${p.x}, ${p.y}) is on this app's own window, which computer use may not touch.`);
    if (inCorner(real, this.shown.screen))
      throw new ComputerRefusal(
        `Not done: (${p.x}, ${p.y}) is a corner of the screen, which is the person's gesture to stop computer use.`,
      );
    return real;
  }
}

/** The part of a rectangle that lies on the screen, or null when none does. */
function clip(r: Rect, screen: Size): Rect | null {
  const x0 = Math.max(0, r.x);
  const y0 = Math.max(0, r.y);
  const x1 = Math.min(screen.width, r.x + r.width);
  const y1 = Math.min(screen.height, r.y + r.height);
  return x1 > x0 && y1 > y0 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : null;
}

function listedWindow(w: WindowInfo): ListedWindow {
  return { id: w.id, title: w.title, class: w.className, instance: w.instance, width: w.rect.width, height: w.rect.height };
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
