import path from 'node:path';
import type { BrowserWindow, Dialog, SaveDialogOptions } from 'electron';
import type { Handler } from '../core/bridge/handler-table';
import { writeFileAtomic } from '../core/fs/atomic-write';

export interface SaveAsParts {
  dialog: Pick<Dialog, 'showSaveDialog'>;
  window: () => BrowserWindow | null;
  /** The folder the dialog opens in (the OS's Downloads). */
  suggestedFolder: () => string;
  /** The conversation as .ipynb text and its file name (notebook.export, through the dispatcher). */
  exportNotebook: (conversationId: string) => Promise<{ fileName: string; text: string }>;
}

/**
 * `notebook.save-as`: the conversation exported as .ipynb, written where the person chose in the OS
 * Save dialog — the only place the destination comes from (the request names a conversation, no path).
 * The export runs first, so a conversation that cannot be exported is said before anyone is asked
 * where to save it; the file is written whole or not at all (atomic-write.ts). The suggested name is
 * the export's, made from the title with no folder separators (notebookFileName), so a title cannot
 * move the suggestion out of the folder it opens in.
 */
export function notebookSaveAs(parts: SaveAsParts): Handler<'notebook.save-as'> {
  return async ({ conversationId }) => {
    const { fileName, text } = await parts.exportNotebook(conversationId);
    const options: SaveDialogOptions = {
      title: `Save ${fileName}`,
      buttonLabel: 'Save notebook',
      defaultPath: path.join(parts.suggestedFolder(), fileName),
      filters: [{ name: 'Jupyter notebook', extensions: ['ipynb'] }],
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    };
    const win = parts.window();
    const picked = win ? await parts.dialog.showSaveDialog(win, options) : await parts.dialog.showSaveDialog(options);
    if (picked.canceled || !picked.filePath) return { savedTo: null };
    const savedTo = path.resolve(picked.filePath);
    await writeFileAtomic(savedTo, text);
    return { savedTo };
  };
}
