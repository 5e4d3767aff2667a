import { runAppProgram, runAppProgramBytes, systemProgram, type ProgramResult } from '../programs/app-programs';
import type { Rect } from './screen-image';
import { readXwd, type RgbImage } from './xwd-image';

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

export class X11Screen {
  readonly kind = 'x11';
  constructor(private readonly target: X11Target) {}

  /** The whole screen (the root window) as RGB. */
  async capture(): Promise<RgbImage> {
    const result = await runAppProgramBytes('xwd', ['-root', '-silent'], {
      env: this.env(),
      timeoutMs: 10_000,
      maxBuffer: 256 * 1024 * 1024,
    });
    if (!result.ok) throw new Error(`could not capture the screen (xwd: ${result.stderr.trim().slice(0, 300) || 'failed'})`);
    return readXwd(result.stdout);
  }

  async pointer(): Promise<{ x: number; y: number }> {
    const out = await this.text('xdotool', ['getmouselocation', '--shell'], 'read where the pointer is');
    const x = /^X=(\d+)$/m.exec(out)?.[1];
    const y = /^Y=(\d+)$/m.exec(out)?.[1];
    if (x === undefined || y === undefined) throw new Error(`xdotool did not say where the pointer is: ${out.slice(0, 200)}`);
    return { x: Number(x), y: Number(y) };
  }

  /** The screen's size in pixels. */
  async displaySize(): Promise<{ width: number; height: number }> {
    const out = await this.text('xdotool', ['getdisplaygeometry'], 'read the screen size');
    const [width, height] = out.trim().split(/\s+/).map(Number);
    if (!width || !height) throw new Error(`xdotool did not give the screen size: ${out.slice(0, 200)}`);
    return { width, height };
  }

  async move(x: number, y: number): Promise<void> {
    await this.text('xdotool', ['mousemove', '--sync', String(x), String(y)], 'move the pointer');
  }

  /** Moves to a point and clicks there, in one xdotool run. */
  async clickAt(x: number, y: number, button: MouseButton, count: number): Promise<void> {
    await this.text('xdotool', ['mousemove', '--sync', String(x), String(y), 'click', '--repeat', String(count), BUTTONS[button]], 'click');
  }

  /** Press at one point, move with the button held, release at another. */
  async drag(from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
    await this.text(
      'xdotool',
      [
        'mousemove',
        '--sync',
        String(from.x),
        String(from.y),
        'mousedown',
        '1',
        'mousemove',
        '--sync',
        String(to.x),
        String(to.y),
        'mouseup',
        '1',
      ],
      'drag',
    );
  }

  /** Types text into the focused window as key presses ("--": text that starts with "-" is text). */
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
    await this.text('xdotool', ['mousemove', '--sync', String(x), String(y), 'click', '--repeat', String(amount), button], 'scroll');
  }

  /** The visible windows of these processes (the app's own), as rectangles of the screen. */
  async windowsOf(pids: readonly number[], windowIds: readonly string[] = []): Promise<Rect[]> {
    const ids = new Set(windowIds);
    for (const pid of pids) {
      const found = await this.result('xdotool', ['search', '--onlyvisible', '--pid', String(pid)]);
      for (const line of found.stdout.split('\n')) if (/^\d+$/.test(line.trim())) ids.add(line.trim());
    }
    const rects: Rect[] = [];
    for (const id of ids) {
      const geometry = await this.result('xdotool', ['getwindowgeometry', '--shell', id]);
      const n = (key: string) => Number(new RegExp(`^${key}=(-?\\d+)$`, 'm').exec(geometry.stdout)?.[1] ?? NaN);
      const rect = { x: n('X'), y: n('Y'), width: n('WIDTH'), height: n('HEIGHT') };
      if (geometry.ok && Object.values(rect).every(Number.isFinite)) rects.push(rect);
    }
    return rects;
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

  /** Why the screen counts as locked now, or null: the X screen saver on, a locker's window mapped, the desktop's locker active. */
  async lockedReason(): Promise<string | null> {
    const [saver, locker] = await Promise.all([
      this.result('xssstate', ['-s']),
      this.result('xdotool', ['search', '--onlyvisible', '--classname', `^(${LOCKER_CLASSES.join('|')})$`]),
    ]);
    if (saver.ok && saver.stdout.trim() === 'on') return 'the X screen saver is active (the screen is blanked or locked)';
    if (locker.ok && /^\d+$/m.test(locker.stdout)) return 'a screen locker’s window is on the screen';
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
