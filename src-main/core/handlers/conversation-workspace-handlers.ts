import path from 'node:path';
import { FILE_COUNT_CAP, type NoticeItem } from '@contract';
import { addNoticeItem, setWorkspace } from '../agent/conversation-changes';
import { newId, now } from '../agent/ids';
import type { HandlerTable } from '../bridge/handler-table';
import { countFiles, removeFolder, whyNotManaged, type ManagedFolderFacts } from '../conversations/managed-workspace';
import { checkWorkspaceFolder } from '../workspace/workspace-folder';
import type { AppContext } from './app-context';

type Names = 'conversation.set-workspace' | 'conversation.workspace-info' | 'conversation.pick-folder' | 'conversation.delete';

/** Where a conversation works: moving it to another folder, and deleting it with the folder the app made. */
export const conversationWorkspaceHandlers = (ctx: AppContext): Pick<HandlerTable, Names> => ({
  'conversation.set-workspace': async ({ conversationId, path: given }) => {
    const folder = await checkWorkspaceFolder(given, ctx);
    let moved = false;
    // The check and the change happen in one synchronous step on the open copy, so a turn cannot
    // start between them and run in the folder being left.
    await ctx.agent.update(conversationId, (conv) => {
      const busy = whatRuns(ctx, conversationId);
      if (busy) throw new Error(`cannot change the folder while ${busy}: stop it first`);
      if (path.resolve(conv.workspace) === folder) return;
      const from = conv.workspace;
      setWorkspace(conv, ctx.events, folder);
      moved = true;
      const text = `This conversation now works in ${folder} (it was ${from}). Its sessions were restarted there, so variables from earlier runs are gone; files written before stay in the old folder.`;
      const notice: NoticeItem = {
        kind: 'notice',
        id: newId(),
        level: 'info',
        text,
        createdAt: now(),
        workspaceChange: { from, to: folder },
      };
      addNoticeItem(conv, ctx.events, notice);
    });
    if (moved) {
      // The next run starts a fresh session in the new folder; the old ones still have the old cwd.
      await ctx.exec.closeConversation(conversationId).catch(() => undefined);
      ctx.workspaceWatchers.follow(conversationId, folder);
    }
    return ctx.agent.snapshot(conversationId);
  },

  'conversation.workspace-info': async ({ conversationId }) => {
    const conv = await ctx.agent.snapshot(conversationId);
    const refusal = await whyNotManaged(conv, await managedFacts(ctx, conversationId));
    return { path: conv.workspace, managed: refusal === null, ...(await countFiles(conv.workspace, FILE_COUNT_CAP)) };
  },

  // The desktop shell replaces this with the OS dialog (src-main/electron/folder-picker.ts).
  'conversation.pick-folder': async () => {
    throw new Error('there is no native folder picker in browser mode: type the folder’s full path instead');
  },

  'conversation.delete': async ({ conversationId, removeWorkspace }) => {
    let folder: string | null = null;
    if (removeWorkspace) {
      // Decided before anything is deleted: a refusal leaves the conversation and its files as they were.
      const conv = await ctx.agent.snapshot(conversationId);
      const refusal = await whyNotManaged(conv, await managedFacts(ctx, conversationId));
      if (refusal) throw new Error(`nothing was deleted: ${refusal}`);
      folder = conv.workspace;
    }
    ctx.reruns.stop(conversationId);
    await ctx.agent.delete(conversationId);
    ctx.workspaceWatchers.stop(conversationId);
    if (folder) await removeFolder(folder);
    return { ok: true };
  },
});

function whatRuns(ctx: AppContext, conversationId: string): string | null {
  if (ctx.agent.isRunning(conversationId)) return 'the agent is working in this conversation';
  if (ctx.reruns.isRunning(conversationId)) return 'its cells are re-running';
  return null;
}

async function managedFacts(ctx: AppContext, conversationId: string): Promise<ManagedFolderFacts> {
  return {
    managedPath: ctx.conversations.managedWorkspaceOf(conversationId),
    workspaceRoot: ctx.settings.get().workspaceRoot,
    others: await ctx.conversations.list(),
  };
}
