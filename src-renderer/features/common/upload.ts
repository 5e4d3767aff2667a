import { plainMessage } from '../../state/plain-error';
import { MAX_ATTACHMENT_BYTES } from '@contract/limits';
import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';
import { useComposer } from '../../state/composer-store';
import { fileBase64 } from './file-base64';
import { formatBytes } from './use-now';

declare global {
  interface Window {
    /** Desktop only: the OS path of a dropped file (Electron's webUtils.getPathForFile, via the preload). */
    oiFiles?: { pathForFile(file: File): string };
  }
}

let nextKey = 1;

/**
 * Copies dropped or pasted files into the conversation's attachments/ folder and shows them as chips
 * for the next message. The desktop app copies by path; browser mode uploads the bytes.
 */
export async function attachFiles(files: readonly File[]): Promise<void> {
  if (files.length === 0) return;
  let conversationId: string;
  try {
    conversationId = await useApp.getState().ensureConversation();
  } catch (err) {
    useApp.getState().reportError(err);
    return;
  }
  await Promise.all(files.map((file) => attachOne(conversationId, file)));
}

async function attachOne(conversationId: string, file: File): Promise<void> {
  const composer = useComposer.getState();
  const key = `att-${nextKey++}`;
  const name =
    file.name ||
    `pasted-${new Date().toISOString().replace(/[:.]/g, '-')}.${(file.type.split('/')[1] ?? 'bin').replace(/[^a-z0-9]/gi, '')}`;
  composer.addChip({
    key,
    name,
    size: file.size,
    mime: file.type,
    thumbnail: file.type.startsWith('image/') ? URL.createObjectURL(file) : null,
    state: 'uploading',
    attachment: null,
    error: null,
  });
  if (file.size > MAX_ATTACHMENT_BYTES) {
    composer.updateChip(key, {
      state: 'failed',
      error: `${formatBytes(file.size)} is over the ${formatBytes(MAX_ATTACHMENT_BYTES)} limit for attachments`,
    });
    return;
  }
  try {
    const sourcePath = window.oiFiles?.pathForFile(file);
    const attachment = sourcePath
      ? await bridge['workspace.attach-path']({ conversationId, sourcePath })
      : await bridge['workspace.attach']({ conversationId, name, mime: file.type, dataBase64: await fileBase64(file) });
    useComposer.getState().updateChip(key, { state: 'ready', attachment, name: attachment.name });
  } catch (err) {
    useComposer.getState().updateChip(key, { state: 'failed', error: plainMessage(err) });
  }
}
