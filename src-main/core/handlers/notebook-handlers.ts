import { errorMessage, type NotebookSource } from '@contract';
import { summaryOf } from '../agent/agent-service';
import { readsLocalPaths, type HandlerTable, type RequestContext } from '../bridge/handler-table';
import { importNotebook, type NotebookImport } from '../notebook/api';
import { saveImportedNotebook } from '../notebook/imported-conversation';
import { notebookFileName, notebookTextOf, readNotebookFile } from '../notebook/notebook-files';
import { loadSubagents } from '../notebook/subagent-section';
import type { AppContext } from './app-context';

type NotebookNames = 'notebook.export' | 'notebook.save-as' | 'notebook.import' | 'notebook.rerun' | 'notebook.rerun-stop';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** .ipynb export and import, and re-running an imported notebook's cells in the live session. */
export const notebookHandlers = (ctx: AppContext): Pick<HandlerTable, NotebookNames> => {
  const { reruns } = ctx;
  return {
    'notebook.export': async ({ conversationId }) => {
      const conv = await ctx.agent.snapshot(conversationId);
      const { provider, model } = ctx.settings.get();
      const subagents = await loadSubagents(conv, (id) => ctx.agent.snapshot(id));
      const { text } = notebookTextOf(conv, { appVersion: ctx.version, provider, model, resourcesDir: ctx.resourcesDir }, subagents);
      return { fileName: notebookFileName(conv.title), text };
    },
    // The desktop shell replaces this with the OS Save dialog (src-main/electron/notebook-save-as.ts).
    'notebook.save-as': async () => {
      throw new Error('there is no Save dialog in browser mode: Export downloads the notebook instead');
    },
    'notebook.import': async ({ fileName, source }, req) => {
      const settings = ctx.settings.get();
      let imported: NotebookImport;
      try {
        const input = await notebookInput(source, settings.notebookMaxBytes, req);
        imported = importNotebook(input, {
          maxBytes: settings.notebookMaxBytes,
          fileName,
          modelOutputChars: settings.exec.modelOutputChars,
        });
      } catch (err) {
        // Name the file: the user may have dropped several.
        throw new Error(`${fileName}: ${errorMessage(err)}`, { cause: err });
      }
      // Only now, with the whole notebook understood, does anything get created.
      const conversation = await saveImportedNotebook(ctx.conversations, imported);
      ctx.events.emit('conversation.updated', { summary: summaryOf(conversation) });
      return { conversation, warnings: imported.warnings };
    },
    'notebook.rerun': async ({ conversationId, startAt }) => reruns.start(conversationId, startAt),
    'notebook.rerun-stop': async ({ conversationId }) => {
      if (!reruns.stop(conversationId)) throw new Error('no cells are re-running in this conversation');
      return { ok: true };
    },
  };
};

/** The notebook's bytes or text from wherever the request says they are. */
async function notebookInput(source: NotebookSource, maxBytes: number, req: RequestContext): Promise<string | Uint8Array> {
  if ('text' in source) return source.text;
  if ('dataBase64' in source) {
    // Buffer.from skips characters that are not base64; refuse them instead of importing a damaged file.
    if (!BASE64.test(source.dataBase64)) throw new Error('the uploaded bytes are not valid base64');
    return Buffer.from(source.dataBase64, 'base64');
  }
  // Only the desktop app knows real paths of chosen or dropped files; a page in a browser sends bytes.
  if (!readsLocalPaths(req))
    throw new Error('importing by path is only available in the desktop app; browser mode uploads the file instead');
  return readNotebookFile(source.sourcePath, maxBytes);
}
