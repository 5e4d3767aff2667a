import path from 'node:path';
import { app, dialog, type BrowserWindow, type SaveDialogOptions } from 'electron';
import type { Handler } from '../core/bridge/handler-table';
import { saveWorkspaceFileCopy } from '../core/workspace/save-copy';

/**
 * The OS Save dialog behind `workspace.save-copy`, replacing the core's browser-mode refusal. The core
 * confines and opens the file before the dialog shows, and copies exactly that file where the user chose.
 */
export function saveCopyDialog(
  window: () => BrowserWindow | null,
  workspaceOf: (conversationId: string) => Promise<string>,
): Handler<'workspace.save-copy'> {
  return async ({ conversationId, path: rel }) => {
    const root = await workspaceOf(conversationId);
    const saved = await saveWorkspaceFileCopy(root, rel, async (name) => {
      const options: SaveDialogOptions = {
        title: `Save a copy of ${name}`,
        buttonLabel: 'Save copy',
        defaultPath: path.join(app.getPath('downloads'), name),
        properties: ['createDirectory', 'showOverwriteConfirmation'],
      };
      const win = window();
      const picked = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
      return picked.canceled || !picked.filePath ? null : picked.filePath;
    });
    return { savedTo: saved?.savedTo ?? null };
  };
}
