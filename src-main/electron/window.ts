import path from 'node:path';
import { BrowserWindow, shell } from 'electron';
import { APP_ORIGIN, isAppUrl } from './app-origin';

const EXTERNAL_SCHEMES = new Set(['https:', 'http:', 'mailto:']);

/** The one window, locked down: sandboxed renderer, no Node, no navigation away, no new windows. */
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

  win.webContents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) {
      event.preventDefault();
      openExternal(url);
    }
  });
  win.webContents.on('will-attach-webview', (event) => event.preventDefault());
  win.webContents.setWindowOpenHandler(({ url }) => {
    openExternal(url);
    return { action: 'deny' };
  });
  void win.loadURL(`${APP_ORIGIN}/index.html`);
  return win;
}

/** Links open in the OS browser, and only for schemes that cannot run anything locally. */
function openExternal(url: string): void {
  try {
    if (EXTERNAL_SCHEMES.has(new URL(url).protocol)) void shell.openExternal(url);
  } catch {
    /* not a URL: ignore */
  }
}
