import { mkdir } from 'node:fs/promises';
import { readsLocalPaths, type HandlerTable } from '../bridge/handler-table';
import { copyAttachmentFrom, saveAttachmentBytes } from '../workspace/attachments';
import { confine } from '../workspace/confine';
import { previewFile } from '../workspace/file-preview';
import { deleteInWorkspace, renameInWorkspace } from '../workspace/file-ops';
import { revealInFileManager } from '../workspace/reveal';
import { listTree } from '../workspace/workspace-tree';
import type { AppContext } from './app-context';

type WorkspaceNames =
  | 'workspace.tree'
  | 'workspace.preview'
  | 'workspace.rename'
  | 'workspace.delete'
  | 'workspace.reveal'
  | 'workspace.attach'
  | 'workspace.attach-path'
  | 'workspace.save-copy'
  | 'workspace.open-with';

/**
 * File-panel requests. Every path is opened, listed, renamed or removed without following a symbolic
 * link at any component (resolve-in-workspace.ts, no-follow-open.ts); reveal hands a confined path to
 * the OS file manager, which opens it itself.
 */
export const workspaceHandlers = (ctx: AppContext): Pick<HandlerTable, WorkspaceNames> => {
  const rootOf = async (conversationId: string) => (await ctx.agent.snapshot(conversationId)).workspace;
  return {
    'workspace.tree': async ({ conversationId }) => {
      const root = await rootOf(conversationId);
      await mkdir(root, { recursive: true });
      // Listing is what the file panel does when it opens a conversation: watch it from then on.
      ctx.workspaceWatchers.watch(conversationId, root);
      return listTree(root);
    },
    'workspace.preview': async ({ conversationId, path }) => {
      const root = await rootOf(conversationId);
      return previewFile(root, path);
    },
    'workspace.rename': async ({ conversationId, from, to }) => ({ path: await renameInWorkspace(await rootOf(conversationId), from, to) }),
    'workspace.delete': async ({ conversationId, path }) => {
      await deleteInWorkspace(await rootOf(conversationId), path);
      return { ok: true };
    },
    'workspace.reveal': async ({ conversationId, path }) => {
      const root = await rootOf(conversationId);
      await revealInFileManager(path ? await confine(root, path, { followFinal: false }) : root);
      return { ok: true };
    },
    'workspace.attach': async ({ conversationId, name, mime, dataBase64 }) => {
      const bytes = Buffer.from(dataBase64, 'base64');
      return saveAttachmentBytes(await rootOf(conversationId), name, mime, bytes);
    },
    'workspace.attach-path': async ({ conversationId, sourcePath }, req) => {
      // Only the desktop app knows real paths of dropped files; a page in a browser must send bytes.
      if (!readsLocalPaths(req))
        throw new Error('attaching by path is only available in the desktop app; browser mode uploads the file instead');
      return copyAttachmentFrom(await rootOf(conversationId), sourcePath);
    },
    // The desktop shell answers this (src-main/electron/open-with.ts): a page in a browser has no app to hand a file to.
    'workspace.open-with': async () => {
      throw new Error('opening a file in another app is only in the desktop app; in browser mode, download it instead');
    },
    // The desktop shell replaces this with the OS Save dialog (src-main/electron/save-copy-dialog.ts).
    'workspace.save-copy': async () => {
      throw new Error('there is no Save dialog in browser mode: the Download button has the browser download the file instead');
    },
  };
};
