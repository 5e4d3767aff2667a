// What the packaged main's module graph gets for `electron` when loaded under Node
// (load-main-graph.mjs): every object answers any method, so evaluating the main's top level
// registers nothing and waits forever for app.whenReady(). Only what is imported is under test here,
// not what Electron does.
const standIn = (overrides = {}) => new Proxy(overrides, { get: (target, name) => (name in target ? target[name] : () => undefined) });

export const app = standIn({
  isPackaged: false,
  whenReady: () => new Promise(() => undefined),
  requestSingleInstanceLock: () => true,
  getPath: () => '/nonexistent',
  getVersion: () => '0.0.0',
});
export class BrowserWindow {
  static getAllWindows() {
    return [];
  }
}
export const autoUpdater = standIn();
export const dialog = standIn();
export const globalShortcut = standIn();
export const ipcMain = standIn();
export const Menu = standIn();
export const net = standIn();
export class Notification {}
export const protocol = standIn();
export const session = standIn();
export const shell = standIn();
export class Tray {}
export default {
  app,
  BrowserWindow,
  autoUpdater,
  dialog,
  globalShortcut,
  ipcMain,
  Menu,
  net,
  Notification,
  protocol,
  session,
  shell,
  Tray,
};
