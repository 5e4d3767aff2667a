import path from 'node:path';
import { BrowserWindow } from 'electron';
import { APP_ORIGIN } from './app-origin';

/**
 * The one window, locked down: sandboxed renderer, no Node. The options stay a literal here, where
 * electronegativity reads them. Navigation away, new windows and webviews are refused for every
 * WebContents by main.ts (web-contents-guards.ts).
 */
export function createMainWindow(preloadDir: string): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    title: 'Open Interpreter Desktop',
    show: false,
    webPreferences: {
      preload: path.join(preloadDir, 'index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      // Middle-click would open links in new windows, around the window-open handler.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(`${APP_ORIGIN}/index.html`);
  return win;
}
