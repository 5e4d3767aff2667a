import type { NotebookSource } from '@contract';
import { MAX_NOTEBOOK_UPLOAD_BYTES } from '@contract/limits';
import { bridge } from '../../bridge/bridge';
import { refreshConversationList, useApp } from '../../state/app-store';
import { fileBase64 } from '../common/file-base64';
import { formatBytes } from '../common/use-now';
import { isNotebookFile, rerunnableCount, useNotebooks } from './notebook-store';

// The notebook entry points' behaviour, apart from their buttons: export downloads the .ipynb, import
// sends the file to main and opens the new conversation, re-run starts/stops main's re-run. Failures
// go to the app's error banner, each naming the file.

/**
 * Saves the conversation as an .ipynb: the desktop app asks where in the OS Save dialog (main writes
 * the file); browser mode downloads it.
 */
export async function exportNotebook(conversationId: string): Promise<void> {
  const notebooks = useNotebooks.getState();
  notebooks.setBusy('Exporting the notebook…');
  try {
    if (window.oi) {
      await bridge['notebook.save-as']({ conversationId });
      return;
    }
    const { fileName, text } = await bridge['notebook.export']({ conversationId });
    downloadText(fileName, text, 'application/x-ipynb+json');
  } catch (err) {
    useApp.getState().reportError(err);
  } finally {
    notebooks.setBusy(null);
  }
}

/** Imports each notebook as a new conversation and opens the last one that imported. */
export async function importNotebookFiles(files: readonly File[]): Promise<void> {
  for (const file of files) await importNotebookFile(file);
}

async function importNotebookFile(file: File): Promise<void> {
  const notebooks = useNotebooks.getState();
  notebooks.setBusy(`Importing ${file.name}…`);
  try {
    const { conversation, warnings } = await bridge['notebook.import']({ fileName: file.name, source: await sourceOf(file) });
    await refreshConversationList();
    await useApp.getState().openConversation(conversation.id);
    notebooks.setWarnings(warnings.length > 0 ? { conversationId: conversation.id, fileName: file.name, warnings } : null);
    const n = rerunnableCount(conversation.items);
    if (n > 0) notebooks.setRerun(conversation.id, { phase: 'offer', n });
  } catch (err) {
    useApp.getState().reportError(err);
  } finally {
    notebooks.setBusy(null);
  }
}

export async function startRerun(conversationId: string, startAt = 0): Promise<void> {
  const notebooks = useNotebooks.getState();
  notebooks.setRerun(conversationId, { phase: 'starting', n: null, startAt });
  try {
    const { n } = await bridge['notebook.rerun']({ conversationId, startAt });
    // Progress events may already have moved the bar on; only fill in n if they have not.
    const now = useNotebooks.getState().reruns[conversationId];
    if (now?.phase === 'starting') notebooks.setRerun(conversationId, { phase: 'starting', n, startAt });
  } catch (err) {
    notebooks.setRerun(conversationId, null);
    useApp.getState().reportError(err);
  }
}

export async function stopRerun(conversationId: string): Promise<void> {
  try {
    await bridge['notebook.rerun-stop']({ conversationId });
  } catch (err) {
    useApp.getState().reportError(err);
  }
}

/**
 * For the window's drop handler: keeps the .ipynb files to offer them for import (the notebook bar
 * asks) and returns the other files, to be attached as usual.
 */
export function takeNotebookDrops(files: readonly File[]): File[] {
  const notebooks = files.filter(isNotebookFile);
  if (notebooks.length > 0) useNotebooks.getState().offerDropped(notebooks);
  return files.filter((f) => !isNotebookFile(f));
}

/** Routes main's re-run events to the notebook bar; returns the unsubscribe. */
export function wireNotebookEvents(): () => void {
  const offs = [
    bridge.on('notebook.rerun-progress', (p) => useNotebooks.getState().onProgress(p)),
    bridge.on('notebook.rerun-done', (p) => useNotebooks.getState().onDone(p)),
  ];
  return () => offs.forEach((off) => off());
}

/** Where main reads the file from: its path in the desktop app, else its bytes (within one request). */
async function sourceOf(file: File): Promise<NotebookSource> {
  const limit = useApp.getState().settings?.notebookMaxBytes;
  if (limit !== undefined && file.size > limit) {
    throw new Error(
      `${file.name}: the notebook is ${formatBytes(file.size)}, over the import limit of ${formatBytes(limit)}. Raise the limit in settings to import it.`,
    );
  }
  const sourcePath = window.oiFiles?.pathForFile(file);
  if (sourcePath) return { sourcePath };
  if (file.size > MAX_NOTEBOOK_UPLOAD_BYTES) {
    throw new Error(
      `${file.name}: ${formatBytes(file.size)} is more than a browser page can upload at once (${formatBytes(MAX_NOTEBOOK_UPLOAD_BYTES)}). ` +
        'Import it in the desktop app instead.',
    );
  }
  return { dataBase64: await fileBase64(file) };
}

const BLOB_LIFETIME_MS = 60_000;

function downloadText(fileName: string, text: string, mime: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: mime }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Chromium reads the blob asynchronously after click(); freeing it at once can cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), BLOB_LIFETIME_MS);
}
