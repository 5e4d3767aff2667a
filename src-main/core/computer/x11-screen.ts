import { runAppProgram, runAppProgramToFile, systemProgram, type ProgramResult } from '../programs/app-programs';
import type { Rect } from './screen-image';
import { XdotoolShell, type ShellAnswer } from './xdotool-shell';
import { focusWindow, parseGeometries, visibleWindows, type WindowInfo, type WindowTools } from './x11-windows';
import { captureThroughFile } from './xwd-capture';
import type { ScreenPixels } from './xwd-image';

// The screen of an X11 display, through the X.Org tools Debian and every X desktop ship: xwd (x11-apps)
// takes the root window as the X server itself hands it out (GetImage), xdotool drives the pointer and
// the keyboard through XTEST, xssstate (suckless-tools) reads the MIT-SCREEN-SAVER state, dbus-send asks
// the desktop's screen locker. Each is found and started by programs/app-programs.ts (an absolute path
// in a system folder, a fixed environment), never by bare name on the app's PATH.

/** The X display and its credentials: all the environment the tools get (besides the system PATH). */
export interface X11Target {
  display: string;
  xauthority?: string;
  /** The desktop's session bus, where its screen locker answers; absent: not asked. */
  sessionBus?: string;
}

export type MouseButton = 'left' | 'middle' | 'right';
const BUTTONS: Record<MouseButton, string> = { left: '1', middle: '2', right: '3' };

/** The programs computer use needs on X11, by the Debian package that has each. */
export const X11_PROGRAMS = { xwd: 'x11-apps', xdotool: 'xdotool' } as const;

/** Window classes of X screen lockers: while one is mapped, the screen is locked. */
const LOCKER_CLASSES = ['i3lock', 'xsecurelock', 'slock', 'xtrlock', 'xscreensaver', 'light-locker', 'xlock', 'physlock'];

/** What is looked at before every action: one query of the xdotool shell. */
export interface ScreenLook {
  pointer: { x: number; y: number };
  size: { width: number; height: number };
  /** The visible windows of the app's own processes, as rectangles of the screen. */
  ownRects: Rect[];
  /** A known screen locker's window is mapped. */
  lockerShown: boolean;
}

export class X11Screen {
  readonly kind = 'x11';
  /** The looks and pointer actions: one long-lived xdotool (xdotool-shell.ts), not a process each. */
  private readonly shell: XdotoolShell;
  constructor(private readonly target: X11Target) {
    this.shell = new XdotoolShell(() => this.env());
  }

  /** Memory a finished screenshot gave back (recycle), for the next capture to be read into. */
  private spare: ArrayBuffer | undefined;

  /** The whole screen (the root window), one word a pixel: xwd's dump through a private file (xwd-capture.ts). */
  capture(): Promise<ScreenPixels> {
    // Taken, so that a capture made meanwhile never reads into memory this one's pixels are in.
    const spare = this.spare;
    this.spare = undefined;
    return captureThroughFile((fd) => runAppProgramToFile('xwd', ['-root', '-silent'], fd, { env: this.env(), timeoutMs: 10_000 }), spare);
  }

  /** Gives a capture's memory back once nothing reads its pixels any more (the screenshot is made). */
  recycle(image: ScreenPixels): void {
    if (image.pixels.buffer instanceof ArrayBuffer) this.spare = image.pixels.buffer;
  }

  /**
   * The pointer, the screen's size, the app's own visible windows (of `pids`, and those given by id)
   * and whether a locker's window is up: two queries of the shell, the second for the geometry of the
   * windows the first found. (A search cannot be chained into getwindowgeometry here: with --pid alone
   * this xdotool takes the next word for its pattern.) A window closing between the two ends xdotool
   * with an X error; the look is then made once more, by a fresh one.
   */
  async look(pids: readonly number[], windowIds: readonly string[] = []): Promise<ScreenLook> {
    const [seen, byId] = await Promise.all([this.retried(() => this.lookOnce(pids), 'look at the screen'), this.windowRects(windowIds)]);
    return { ...seen, ownRects: [...seen.ownRects, ...byId] };
  }

  private async lookOnce(pids: readonly number[]): Promise<ScreenLook> {
    const [where, locker, ...found] = (await this.shell.run([
      'getmouselocation --shell',
      `search --onlyvisible --classname '^(${LOCKER_CLASSES.join('|')})$'`,
      ...pids.map((pid) => `search --onlyvisible --pid ${px(pid)}`),
    ])) as [ShellAnswer, ShellAnswer, ...ShellAnswer[]];
    const ids = [...new Set(found.flatMap((f) => f.text.split('\n').filter((line) => /^\d+$/.test(line))))];
    const geometries = ids.length ? await this.shell.run(ids.map((id) => `getwindowgeometry --shell ${id}`)) : [];
    return {
      pointer: parsePointer(where.text),
      size: { width: where.width, height: where.height },
      ownRects: geometries.flatMap((g) => parseGeometries(g.text)),
      lockerShown: /^\d+$/m.test(locker.text),
    };
  }

  /** Where the pointer is, and the screen's size in pixels (the corner watch's look). */
  async pointer(): Promise<{ pointer: { x: number; y: number }; size: { width: number; height: number } }> {
    const [where] = await this.query(['getmouselocation --shell'], 'read where the pointer is');
    if (!where?.width || !where.height) throw new Error('xdotool did not give the screen size');
    return { pointer: parsePointer(where.text), size: { width: where.width, height: where.height } };
  }

  async move(x: number, y: number): Promise<void> {
    await this.act([`mousemove ${px(x)} ${px(y)}`], 'move the pointer');
  }

  /**
   * Moves to a point and clicks there, in one command. No `--sync` on the move: the X server handles a
   * client's XTEST requests in order, so the press lands where the move put the pointer — and this
   * xdotool's `--sync` waits for the pointer to leave where it was, 15 s when it is already at the
   * point (a second click on the same spot). `click` sleeps its `--delay` after every click, the last
   * too (100 ms unless told): none after a single one, and a double click's two well inside any
   * toolkit's double-click time. The shell's `getdisplaygeometry` after it is a round trip, so the
   * answer comes once the server has taken the clicks.
   */
  async clickAt(x: number, y: number, button: MouseButton, count: number): Promise<void> {
    const delay = count > 1 ? 40 : 0;
    await this.act([`mousemove ${px(x)} ${px(y)} click --repeat ${px(count)} --delay ${delay} ${BUTTONS[button]}`], 'click');
  }

  /** Press at one point, move with the button held, release at another. */
  async drag(from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
    await this.act([`mousemove ${px(from.x)} ${px(from.y)} mousedown 1 mousemove ${px(to.x)} ${px(to.y)} mouseup 1`], 'drag');
  }

  /** Types text into the focused window as key presses ("--": text that starts with "-" is text). A process of its own: text never goes through the shell, whose reader expands `$NAME`. */
  async type(text: string): Promise<void> {
    await this.text('xdotool', ['type', '--delay', '8', '--', text], 'type');
  }

  /** Presses a key combination given as X keysym names joined by "+" ("ctrl+s", "Return"). */
  async key(combo: string): Promise<void> {
    await this.text('xdotool', ['key', '--', combo], 'press keys');
  }

  /** Scroll wheel clicks at a point: X buttons 4–7. */
  async scrollAt(x: number, y: number, direction: 'up' | 'down' | 'left' | 'right', amount: number): Promise<void> {
    const button = { up: '4', down: '5', left: '6', right: '7' }[direction];
    await this.act([`mousemove ${px(x)} ${px(y)} click --repeat ${px(amount)} --delay 10 ${button}`], 'scroll');
  }

  /** The visible windows with a title or a class, the app's own among them (x11-windows.ts). */
  windows(): Promise<WindowInfo[]> {
    if (!systemProgram('xprop')) return Promise.reject(new Error('listing windows needs xprop (apt install x11-utils)'));
    return visibleWindows(this.windowTools);
  }

  /** Focuses and raises a window; whether the focus is on it now. Never repeated (it is an action). */
  async focus(id: number): Promise<boolean> {
    try {
      return await focusWindow(this.windowTools, id);
    } catch (err) {
      throw new Error(`could not focus the window (${err instanceof Error ? err.message : String(err)})`, { cause: err });
    }
  }

  private readonly windowTools: WindowTools = {
    shell: (commands) => this.shell.run(commands),
    retried: (ask, what) => this.retried(ask, what),
    // Titles are UTF-8 (_NET_WM_NAME): xprop prints them as they are only in a UTF-8 locale.
    run: (program, args) => runAppProgram(program, args, { env: { ...this.env(), LANG: 'C.UTF-8' }, timeoutMs: 10_000 }),
  };

  /** Ends the xdotool the looks go through (a new one starts with the next look), and lets the spare memory go. */
  close(): void {
    this.shell.close();
    this.spare = undefined;
  }

  /** Windows named by id (oi's terminal): one process each, as a stale id would end the shell's xdotool. */
  private async windowRects(windowIds: readonly string[]): Promise<Rect[]> {
    const rects: Rect[] = [];
    for (const id of windowIds) {
      const geometry = await this.result('xdotool', ['getwindowgeometry', '--shell', id]);
      if (geometry.ok) rects.push(...parseGeometries(geometry.stdout));
    }
    return rects;
  }

  private query(commands: string[], what: string): Promise<ShellAnswer[]> {
    return this.retried(() => this.shell.run(commands), what);
  }

  /** An action: never repeated (a click that timed out may have landed), the failure said. */
  private async act(commands: string[], what: string): Promise<void> {
    try {
      await this.shell.run(commands);
    } catch (err) {
      throw new Error(`could not ${what} (${err instanceof Error ? err.message : String(err)})`, { cause: err });
    }
  }

  /** Once more on a failure (a fresh xdotool: the last may have ended on a window that went away). */
  private async retried<T>(ask: () => Promise<T>, what: string): Promise<T> {
    try {
      return await ask();
    } catch {
      try {
        return await ask();
      } catch (err) {
        throw new Error(`could not ${what} (${err instanceof Error ? err.message : String(err)})`, { cause: err });
      }
    }
  }

  /** The window that has the keyboard focus, by id, or null when none does. */
  async focusedWindow(): Promise<string | null> {
    const found = await this.result('xdotool', ['getwindowfocus']);
    const id = found.stdout.trim();
    return found.ok && /^\d+$/.test(id) ? id : null;
  }

  /** The ids of these processes' windows (mapped or not) and of the windows given by id. */
  async ownWindowIds(pids: readonly number[], windowIds: readonly string[] = []): Promise<Set<string>> {
    const ids = new Set(windowIds);
    for (const pid of pids) {
      const found = await this.result('xdotool', ['search', '--pid', String(pid)]);
      for (const line of found.stdout.split('\n')) if (/^\d+$/.test(line.trim())) ids.add(line.trim());
    }
    return ids;
  }

  /**
   * Why the screen counts as locked now, or null: the X screen saver on, the desktop's locker active.
   * A locker's window mapped is seen by `look`, which every action makes anyway.
   */
  async lockedReason(): Promise<string | null> {
    const saver = await this.result('xssstate', ['-s']);
    if (saver.ok && saver.stdout.trim() === 'on') return 'the X screen saver is active (the screen is blanked or locked)';
    if (this.target.sessionBus) {
      const asked = await this.result('dbus-send', [
        '--session',
        '--print-reply',
        '--reply-timeout=1000',
        '--dest=org.freedesktop.ScreenSaver',
        '/org/freedesktop/ScreenSaver',
        'org.freedesktop.ScreenSaver.GetActive',
      ]);
      if (asked.ok && /boolean true/.test(asked.stdout)) return 'the desktop’s screen locker says the screen is locked';
    }
    return null;
  }

  private env(): NodeJS.ProcessEnv {
    return {
      PATH: '/usr/bin:/bin',
      LANG: 'C',
      DISPLAY: this.target.display,
      ...(this.target.xauthority ? { XAUTHORITY: this.target.xauthority } : {}),
      ...(this.target.sessionBus ? { DBUS_SESSION_BUS_ADDRESS: this.target.sessionBus } : {}),
    };
  }

  private result(program: string, args: string[]): Promise<ProgramResult> {
    return runAppProgram(program, args, { env: this.env(), timeoutMs: 10_000 });
  }

  private async text(program: string, args: string[], what: string): Promise<string> {
    const result = await this.result(program, args);
    if (!result.ok) throw new Error(`could not ${what} (${program}: ${result.stderr.trim().slice(0, 300) || 'failed'})`);
    return result.stdout;
  }
}

/** A whole pixel count for a command line of the shell (the model's numbers were checked before; this keeps the line numeric). */
function px(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`not a pixel: ${n}`);
  return String(Math.trunc(n));
}

function parsePointer(out: string): { x: number; y: number } {
  const x = /^X=(\d+)$/m.exec(out)?.[1];
  const y = /^Y=(\d+)$/m.exec(out)?.[1];
  if (x === undefined || y === undefined) throw new Error(`xdotool did not say where the pointer is: ${out.slice(0, 200)}`);
  return { x: Number(x), y: Number(y) };
}

/** Whether computer use can work here, and if not why (Settings shows the reason; the tool is then not offered). */
export function x11Support(
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): { available: true; target: X11Target } | { available: false; reason: string } {
  if (platform === 'darwin')
    return {
      available: false,
      reason:
        'Computer use is not built for macOS yet (it needs the Screen Recording and Accessibility permissions; docs/computer-use.md).',
    };
  if (platform === 'win32') return { available: false, reason: 'Computer use is not built for Windows yet (docs/computer-use.md).' };
  if (platform !== 'linux') return { available: false, reason: `Computer use is not built for ${platform}.` };
  if (env.XDG_SESSION_TYPE === 'wayland' || env.WAYLAND_DISPLAY)
    return {
      available: false,
      reason:
        'This is a Wayland session: X tools see only X programs there, and the desktop portal that Wayland needs is not built yet (docs/computer-use.md).',
    };
  if (!env.DISPLAY) return { available: false, reason: 'There is no X display (DISPLAY is not set).' };
  const missing = (Object.keys(X11_PROGRAMS) as Array<keyof typeof X11_PROGRAMS>).filter((p) => !systemProgram(p));
  if (missing.length)
    return {
      available: false,
      reason: `Computer use needs ${missing.join(' and ')} (apt install ${missing.map((p) => X11_PROGRAMS[p]).join(' ')}).`,
    };
  return {
    available: true,
    target: {
      display: env.DISPLAY,
      ...(env.XAUTHORITY ? { xauthority: env.XAUTHORITY } : {}),
      ...(env.DBUS_SESSION_BUS_ADDRESS ? { sessionBus: env.DBUS_SESSION_BUS_ADDRESS } : {}),
    },
  };
}
