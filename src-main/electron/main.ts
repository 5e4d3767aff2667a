import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, globalShortcut, ipcMain, Menu, Notification, session, shell, Tray } from 'electron';
import { createDispatcher } from '../core/bridge/dispatch';
import { currentOiCommand } from '../core/schedules/oi-command';
import { startScheduleService } from '../core/schedules/schedule-service';
import { openWindowedSecrets, startApp } from '../core/start-app';
import { registerAppScheme, serveRenderer } from './app-protocol';
import { folderPicker } from './folder-picker';
import { bindComputerStopShortcut } from './computer-stop-shortcut';
import { bindBackgroundTray } from './background-tray';
import { bindOsNotifications } from './notifications';
import { bindIpc } from './ipc';
import { notebookSaveAs } from './notebook-save-as';
import { bindNotebookOpening, NotebookOpener, notebookPathsIn } from './open-notebooks';
import { bindConversationLinks, ConversationLinks, conversationLinksIn } from './conversation-links';
import { openWithHandler } from './open-with';
import { denyAllPermissions } from './permissions';
import { saveCopyDialog } from './save-copy-dialog';
import { shellPaths } from './shell-paths';
import { guardWebContents } from './web-contents-guards';
import { startUpdates, updateHandlers } from './updates';
import { createMainWindow } from './window';

// The thin desktop shell: lifecycle, the window, and binding the core's handler table to IPC.
// Everything else is plain Node in src-main/core, shared with browser mode and the CLI.

registerAppScheme();
if (!app.requestSingleInstanceLock()) app.quit();

const { outDir, packageRoot, resourcesDir } = shellPaths(path.dirname(fileURLToPath(import.meta.url)), {
  isPackaged: app.isPackaged,
  resourcesPath: process.resourcesPath,
});

let mainWindow: BrowserWindow | null = null;

// Notebooks given on the command line, or by the OS before the app is ready, wait for the core.
const notebooks = new NotebookOpener();
void notebooks.open(notebookPathsIn(process.argv.slice(1), process.cwd()));
bindNotebookOpening(app, notebooks, () => {
  if (!mainWindow) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.focus();
});
// Conversation links (a scheduled run's notification, clicked with the app closed) wait for it too.
const links = new ConversationLinks();
void links.open(conversationLinksIn(process.argv.slice(1)));
bindConversationLinks(app, links);

// No page may open windows or navigate elsewhere, whichever window it lives in (web-contents-guards.ts).
app.on('web-contents-created', (_e, contents) => guardWebContents(contents, (url) => shell.openExternal(url)));

void app.whenReady().then(async () => {
  // Permissions (camera, notifications, geolocation…) are never needed: deny them all.
  denyAllPermissions(session.defaultSession);
  serveRenderer(path.join(outDir, 'renderer'));

  const { app: core, notices } = await startApp({
    dataDir: app.getPath('userData'),
    packageRoot,
    resourcesDir,
    openSecrets: openWindowedSecrets,
    app: { mcpApprovalEndpoint: true },
  });
  // Notices (damaged settings reset, no keychain) reach the user through the UI; log them too.
  for (const notice of notices) console.warn(notice);
  const workspaceOf = async (id: string) => (await core.context.agent.snapshot(id)).workspace;
  // Before the handlers: Settings → Updates asks this build's feed (none in a build made from source).
  const updates = startUpdates({
    isPackaged: app.isPackaged,
    resourcesPath: process.resourcesPath,
    dataDir: app.getPath('userData'),
    enabled: () => core.context.settings.get().updates,
  });
  const handlers = {
    ...core.handlers,
    ...updateHandlers(updates, app.getVersion()),
    // The requests only the shell can answer, with the OS dialogs: browser mode asks for a typed path
    // instead of the folder picker, and downloads over HTTP instead of the Save dialog.
    'conversation.pick-folder': folderPicker(() => mainWindow, workspaceOf),
    'workspace.save-copy': saveCopyDialog(() => mainWindow, workspaceOf),
    'notebook.save-as': notebookSaveAs({
      dialog,
      window: () => mainWindow,
      suggestedFolder: () => app.getPath('downloads'),
      exportNotebook: async (conversationId) => {
        const reply = await dispatch('notebook.export', { conversationId }, { transport: 'ipc' });
        if (!reply.ok) throw new Error(reply.error.message);
        return reply.result as { fileName: string; text: string };
      },
    }),
    'workspace.open-with': openWithHandler(workspaceOf, { shell, platform: process.platform }),
  };
  // Scheduled tasks no OS scheduler runs, folder triggers and the webhook, while the app is open (docs/schedules.md).
  const schedules = startScheduleService({
    dataDir: app.getPath('userData'),
    command: currentOiCommand(process.env),
    events: core.events,
    log: (line) => console.warn(`scheduled tasks: ${line}`),
  });
  const dispatch = createDispatcher(handlers);
  const unbind = bindIpc(ipcMain, dispatch, core.events, () => mainWindow?.webContents ?? null);
  // While the agent has the screen: a key combination that stops it from any program (docs/computer-use.md).
  const unbindStop = bindComputerStopShortcut(globalShortcut, core.events, (notice) => core.context.computer.stopAll(notice));
  // Before the window opens, which then shows the newest conversation: the notebook it was opened with.
  await notebooks.start({
    dispatch,
    opened: (conversationId) => {
      core.events.emit('conversation.show', { conversationId });
      mainWindow?.focus();
    },
    // An OS dialog: the file came from outside the window, which may not be there yet.
    refused: (fileName, message) => dialog.showErrorBox(`${fileName} was not opened`, message),
  });

  const open = () => {
    mainWindow = createMainWindow(path.join(outDir, 'preload'));
    mainWindow.on('closed', () => {
      mainWindow = null;
      tray.update();
    });
    tray.update();
  };
  const allClosed = () => {
    if (process.platform !== 'darwin') app.quit();
  };
  // Turns go on with the window closed, the tray saying so (background-tray.ts); the OS notification
  // calls the person back to the right conversation (notifications.ts).
  const tray = bindBackgroundTray({
    events: core.events,
    createTray: () => {
      const icon = new Tray(path.join(resourcesDir, 'tray', 'icon.png'));
      return {
        setToolTip: (text) => icon.setToolTip(text),
        setContextMenu: (template) => icon.setContextMenu(Menu.buildFromTemplate(template)),
        on: (event, listener) => icon.on(event, listener),
        destroy: () => icon.destroy(),
      };
    },
    hasWindow: () => mainWindow !== null,
    openWindow: () => (mainWindow ? mainWindow.focus() : open()),
    quit: () => app.quit(),
    allClosed,
  });
  /** Brings the window forward (opening it if closed) on the conversation. */
  const showConversation = (conversationId: string): void => {
    const fresh = !mainWindow;
    if (!mainWindow) open();
    const win = mainWindow;
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
    // A window opened just now shows its page once loaded; the event would reach no page before.
    if (fresh || win.webContents.isLoading())
      win.webContents.once('did-finish-load', () => core.events.emit('conversation.show', { conversationId }));
    else core.events.emit('conversation.show', { conversationId });
  };
  const unbindNotifications = bindOsNotifications({
    events: core.events,
    notifyOn: () => core.context.settings.get().notifyOn,
    supported: () => Notification.isSupported(),
    create: (options) => new Notification(options),
    watching: () => !!mainWindow && mainWindow.isVisible() && !mainWindow.isMinimized() && mainWindow.isFocused(),
    titleOf: async (id) => (await core.context.agent.snapshot(id)).title,
    open: showConversation,
  });
  open();
  void links.start({ dispatch, show: showConversation });
  // A client of `oi mcp` waits for the person: show the window (reopened on macOS, where closing it keeps
  // the app running) and draw the eye to it, since the person is probably in the other agent's window.
  core.events.subscribe((event) => {
    if (event.name !== 'mcp-approval.asked') return;
    if (!mainWindow) open();
    else if (!mainWindow.isFocused()) mainWindow.flashFrame(true);
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) open();
  });
  app.on('window-all-closed', () => {
    // A running turn keeps the app (and its tray icon) until it ends.
    if (tray.running().size === 0) allClosed();
  });
  app.on('will-quit', () => {
    unbind();
    unbindStop();
    unbindNotifications();
    tray.dispose();
    void schedules.then((s) => s.close());
    void core.dispose();
  });
});
