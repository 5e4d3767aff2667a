import { dialog, type BrowserWindow, type OpenDialogOptions } from 'electron';
import type { Handler } from '../core/bridge/handler-table';

/**
 * The OS folder dialog behind `conversation.pick-folder`, replacing the core's browser-mode refusal.
 * It only returns what the user picked: `conversation.set-workspace` checks the folder and moves the
 * conversation, the same as for a typed path.
 */
export function folderPicker(
  window: () => BrowserWindow | null,
  workspaceOf: (conversationId: string) => Promise<string>,
): Handler<'conversation.pick-folder'> {
  return async ({ conversationId }) => {
    const defaultPath = await workspaceOf(conversationId).catch(() => undefined);
    const options: OpenDialogOptions = {
      title: 'Choose the folder this conversation works in',
      buttonLabel: 'Use this folder',
      properties: ['openDirectory', 'createDirectory'],
      ...(defaultPath ? { defaultPath } : {}),
    };
    const win = window();
    const picked = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
    return { path: picked.canceled ? null : (picked.filePaths[0] ?? null) };
  };
}
