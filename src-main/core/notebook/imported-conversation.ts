import { constants } from 'node:fs';
import { realpath, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import type { Conversation, ConversationItem } from '@contract';
import type { ConversationStore } from '../conversations/conversation-store';
import { isSafeAttachmentPath, type ImportedFile } from './import-attachments';
import type { NotebookImport } from './ipynb-import';
import { NoFollowError, openBeneath, unlinkBeneath } from '../fs/no-follow-open';
import { errorMessage } from '@contract/error-message';

// Turning a parsed notebook into a saved conversation. Parsing already succeeded (importNotebook is
// all or nothing); what is left can still fail on disk, so a failure removes everything this import
// wrote. Files are created exclusively: a workspace shared by several conversations (the
// workspaceRoot setting) may already hold an attachments/plot.png that another conversation uses,
// and that file must not change — the imported one gets a free name and its references follow.

export async function saveImportedNotebook(
  store: ConversationStore,
  imported: NotebookImport,
  title = imported.title,
): Promise<Conversation> {
  const conv = await store.create(title, []);
  const written: string[] = [];
  const madeDirs: string[] = [];
  try {
    const moved = await writeFiles(conv.workspace, imported.files, written, madeDirs);
    // eslint-disable-next-line no-restricted-syntax -- a conversation still being built, open in no window yet
    conv.items = moved.size > 0 ? imported.conversationItems.map((item) => withMovedPaths(item, moved)) : imported.conversationItems;
    conv.notebook = imported.notebook;
    await store.save(conv);
    return conv;
  } catch (err) {
    // Nothing of a failed import stays: its files, the folders it made, the conversation, and the
    // workspace folder the store made for it (never a folder shared with other conversations).
    const root = await realpath(conv.workspace).catch(() => conv.workspace);
    await Promise.all(written.map((file) => unlinkBeneath(root, path.relative(root, file).split(path.sep)).catch(() => undefined)));
    await removeEmptyFolders(madeDirs, written);
    await store.delete(conv.id).catch(() => undefined);
    if (conv.workspace === store.managedWorkspaceOf(conv.id))
      await rm(conv.workspace, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  }
}

/**
 * Removes the folders the import made, from the deepest up, each only when empty: in a workspace
 * shared with other conversations, someone else may have written into one meanwhile.
 */
async function removeEmptyFolders(madeDirs: readonly string[], written: readonly string[]): Promise<void> {
  const candidates = new Set<string>();
  for (const top of madeDirs) {
    candidates.add(top);
    for (const file of written) {
      for (let dir = path.dirname(file); dir.startsWith(top + path.sep); dir = path.dirname(dir)) candidates.add(dir);
    }
  }
  const deepestFirst = [...candidates].sort((a, b) => b.length - a.length);
  for (const dir of deepestFirst) await rmdir(dir).catch(() => undefined);
}

/** Writes each file under attachments/; returns the paths that had to change because the name was taken. */
async function writeFiles(
  workspace: string,
  files: readonly ImportedFile[],
  written: string[],
  madeDirs: string[],
): Promise<Map<string, string>> {
  const moved = new Map<string, string>();
  if (files.length === 0) return moved;
  const root = await realpath(workspace);
  for (const file of files) {
    if (!isSafeAttachmentPath(file.path))
      throw new Error(`the notebook's attachment path ${JSON.stringify(file.path)} leads outside attachments/`);
    const finalPath = await createExclusive(root, file.path, file.data, written, madeDirs);
    if (finalPath !== file.path && !moved.has(file.path)) moved.set(file.path, finalPath);
  }
  return moved;
}

/**
 * Creates the file at `wanted`, or at "name-2.ext", "name-3.ext"… when taken; returns the path used.
 * attachments/ may hold links made by someone's code: none is followed (no-follow-open.ts), so nothing
 * is written elsewhere. The first folder created is noted, to be removed again if the import fails.
 */
async function createExclusive(root: string, wanted: string, data: Uint8Array, written: string[], madeDirs: string[]): Promise<string> {
  const ext = path.posix.extname(wanted);
  const stem = wanted.slice(0, wanted.length - ext.length);
  let first = true;
  const onCreate = (dir: string): void => {
    if (first) madeDirs.push(dir);
    first = false;
  };
  for (let n = 1; n < 10_000; n++) {
    const relative = n === 1 ? wanted : `${stem}-${n}${ext}`;
    const absolute = path.join(root, relative);
    let handle;
    try {
      handle = await openBeneath(root, relative.split('/'), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, {
        create: true,
        fileMode: 0o644,
        onCreate,
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      if (err instanceof NoFollowError)
        throw new Error(`attachments/ in ${root} leads outside the workspace: ${err.message}`, { cause: err });
      throw new Error(`cannot write the notebook's attachment ${relative}: ${errorMessage(err)}`, { cause: err });
    }
    written.push(absolute);
    try {
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
    return relative;
  }
  throw new Error(`too many files named like ${wanted} in the workspace`);
}

/** The item with references to moved attachment files pointing at their new paths. */
function withMovedPaths(item: ConversationItem, moved: ReadonlyMap<string, string>): ConversationItem {
  if (item.kind === 'user' && item.attachments.some((a) => moved.has(a.path))) {
    return { ...item, attachments: item.attachments.map((a) => ({ ...a, path: moved.get(a.path) ?? a.path })) };
  }
  if (item.kind === 'assistant') {
    // Import rewrote `attachment:name` links in notebook prose to these workspace paths.
    let text = item.text;
    for (const [from, to] of moved) text = text.split(from).join(to);
    return text === item.text ? item : { ...item, text };
  }
  return item;
}
