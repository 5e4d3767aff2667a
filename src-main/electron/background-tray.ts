import type { MenuItemConstructorOptions } from 'electron';
import type { EventBus } from '../core/bridge/event-bus';

// Turns that outlive the window (docs/ui.md#background-turns): closing the window while a turn runs
// leaves the app running, with an icon in the system tray (the menu bar on macOS) that says how many
// turns run, opens the window again, or quits (which stops them). Its icon is resources/tray/icon.png
// (and @2x, which Electron picks on HiDPI screens): resources/build/ is not packaged. When the last turn ends with the
// window still closed the icon goes and the app does what closing the window would have done then.

/** What the shell needs of Electron's Tray: `new Tray(icon)` in main.ts. */
export interface TrayIcon {
  setToolTip(text: string): void;
  setContextMenu(menu: MenuItemConstructorOptions[]): void;
  on(event: 'click', listener: () => void): unknown;
  destroy(): void;
}

export interface BackgroundTrayOptions {
  events: EventBus;
  createTray: () => TrayIcon;
  hasWindow: () => boolean;
  openWindow: () => void;
  /** Quits the app (Quit in the tray's menu; the dispose stops the turns). */
  quit: () => void;
  /** Closing the window with nothing running: quit, except on macOS, where the app stays in the dock. */
  allClosed: () => void;
}

export interface BackgroundTray {
  /** The window opened or closed: show or remove the icon. */
  update(): void;
  /** The turns running now, by conversation. */
  running(): ReadonlySet<string>;
  dispose(): void;
}

export const runningText = (n: number) =>
  `Open Interpreter: ${n} ${n === 1 ? 'turn runs' : 'turns run'} with the window closed. Quitting stops ${n === 1 ? 'it' : 'them'}.`;

export function bindBackgroundTray(opts: BackgroundTrayOptions): BackgroundTray {
  const running = new Set<string>();
  let tray: TrayIcon | null = null;
  const menu = (n: number): MenuItemConstructorOptions[] => [
    { label: `${n} ${n === 1 ? 'turn' : 'turns'} running`, enabled: false },
    { label: 'Open Open Interpreter', click: () => opts.openWindow() },
    { type: 'separator' },
    { label: n > 0 ? 'Quit (stops the running turns)' : 'Quit', click: () => opts.quit() },
  ];
  const update = () => {
    const wanted = running.size > 0 && !opts.hasWindow();
    if (wanted) {
      if (!tray) {
        tray = opts.createTray();
        tray.on('click', () => opts.openWindow());
      }
      tray.setToolTip(runningText(running.size));
      tray.setContextMenu(menu(running.size));
    } else if (tray) {
      tray.destroy();
      tray = null;
    }
  };
  const unsubscribe = opts.events.subscribe((event) => {
    if (event.name === 'turn.start') running.add(event.payload.conversationId);
    else if (event.name === 'turn.end') running.delete(event.payload.conversationId);
    else return;
    const hadTray = tray !== null;
    update();
    // The last turn ended while the window was closed: as if the window had been closed just now.
    if (hadTray && running.size === 0 && !opts.hasWindow()) opts.allClosed();
  });
  return {
    update,
    running: () => running,
    dispose: () => {
      unsubscribe();
      tray?.destroy();
      tray = null;
    },
  };
}
