import type { ProgramResult } from '../programs/app-programs';
import type { Rect } from './screen-image';
import type { ShellAnswer } from './xdotool-shell';

// The windows on an X screen, for find_window, focus_window and a screenshot of one window
// (docs/computer-use.md#windows). Their ids and rectangles come from the xdotool shell (lines of
// numbers only); their titles and classes from xprop, one process a window, whose quoted output a
// title cannot break — a title is anyone's text (a web page's), so it never goes through the shell's
// answers, where a title reading "1601 1001" would pass for the end of an answer. Which of them are
// the app's own is decided by the caller (computer-control.ts), which never lists, focuses or shows those.

/** One top-level window as the model is told of it. */
export interface WindowInfo {
  id: number;
  title: string;
  /** WM_CLASS: the instance name and the class name ("secondform", "Secondform"). */
  instance: string;
  className: string;
  /** Where it is on the screen, in real pixels. */
  rect: Rect;
}

/** What this needs of the X11 screen: its shell, a retry on a fresh xdotool, and a program run through the launcher. */
export interface WindowTools {
  shell(commands: string[]): Promise<ShellAnswer[]>;
  retried<T>(ask: () => Promise<T>, what: string): Promise<T>;
  run(program: string, args: string[]): Promise<ProgramResult>;
}

/** At most this many windows are looked at: a desktop has tens; the rest are not listed. */
const MAX_WINDOWS = 100;

/** The visible windows that have a title or a class, with where they are (the app's own among them). */
export async function visibleWindows(tools: WindowTools): Promise<WindowInfo[]> {
  // The search and the geometry in one go, asked again of a fresh xdotool if a window closed between
  // them (its X error ends xdotool). '.' matches any window with a title, a class or an instance name.
  const placed = await tools.retried(async () => {
    const [found] = await tools.shell([`search --onlyvisible --name --class --classname '.'`]);
    const ids = [...new Set((found?.text ?? '').split('\n').filter((line) => /^\d+$/.test(line)))].slice(0, MAX_WINDOWS);
    const geometries = ids.length ? await tools.shell(ids.map((id) => `getwindowgeometry --shell ${id}`)) : [];
    return ids.flatMap((id, i) => {
      const rect = parseGeometries(geometries[i]?.text ?? '')[0];
      return rect ? [{ id: Number(id), rect }] : [];
    });
  }, 'list the windows');
  const named = await Promise.all(
    placed.map(async (w) => {
      const props = await tools.run('xprop', ['-id', String(w.id), '-notype', 'WM_CLASS', '_NET_WM_NAME', 'WM_NAME']);
      // A window gone since: not listed.
      return props.ok ? { ...w, ...parseProps(props.stdout) } : null;
    }),
  );
  return named.filter((w): w is WindowInfo => w !== null);
}

/** The windows whose title, and whose class or instance name, hold these texts (any case); all of them without. */
export function matching(windows: readonly WindowInfo[], filter: { title?: string; class?: string }): WindowInfo[] {
  const has = (value: string, part: string | undefined) => !part || value.toLowerCase().includes(part.toLowerCase());
  return windows.filter((w) => has(w.title, filter.title) && (has(w.className, filter.class) || has(w.instance, filter.class)));
}

/**
 * Gives a window the keyboard focus and raises it: asked of the window manager (_NET_ACTIVE_WINDOW,
 * which it may honour later or not at all; without one, as under Xvfb, xdotool says so and goes on)
 * and set directly (XSetInputFocus). Whether the focus is there now.
 */
export async function focusWindow(tools: WindowTools, id: number): Promise<boolean> {
  const answers = await tools.shell([`windowactivate ${id}`, `windowraise ${id} windowfocus ${id}`, 'getwindowfocus']);
  // getwindowfocus names the focused window's first ancestor-or-self that has a class: the top-level one.
  return answers[2]?.text.trim() === String(id);
}

/** The blocks `getwindowgeometry --shell` prints (WINDOW=, X=, Y=, WIDTH=, HEIGHT=, SCREEN=), as rectangles. */
export function parseGeometries(out: string): Rect[] {
  return out
    .split(/^(?=WINDOW=)/m)
    .map((block) => {
      const n = (key: string) => Number(new RegExp(`^${key}=(-?\\d+)$`, 'm').exec(block)?.[1] ?? NaN);
      return { x: n('X'), y: n('Y'), width: n('WIDTH'), height: n('HEIGHT') };
    })
    .filter((rect) => Object.values(rect).every(Number.isFinite));
}

/** xprop's `NAME = "a", "b"` lines (or `NAME:  not found.`): the title (the UTF-8 one first) and the class. */
function parseProps(out: string): { title: string; instance: string; className: string } {
  const strings = (name: string): string[] => {
    const line = new RegExp(`^${name} = (.*)$`, 'm').exec(out)?.[1] ?? '';
    return [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => (m[1] ?? '').replace(/\\(.)/g, '$1'));
  };
  const [instance = '', className = ''] = strings('WM_CLASS');
  return { title: strings('_NET_WM_NAME')[0] ?? strings('WM_NAME')[0] ?? '', instance, className };
}
