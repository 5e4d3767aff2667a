import type { WorkspaceInfo } from '@contract';
import { bridge } from '../bridge/bridge';
import { useApp } from './app-store';
import { useWorkspace } from './workspace-store';

// Choosing the folder a conversation works in. Main checks the folder and refuses while something
// runs; the page only passes on what it says.

/** The desktop app's bridge can open the OS folder dialog; browser mode asks for a typed path. */
export function hasFolderDialog(): boolean {
  return window.oi !== undefined;
}

/** The OS folder dialog (desktop app only); null when the user cancelled. */
export async function pickFolder(conversationId: string): Promise<string | null> {
  return (await bridge['conversation.pick-folder']({ conversationId })).path;
}

/** Moves the conversation to `folder`; throws main's reason when it refuses. */
export async function moveWorkspace(conversationId: string, folder: string): Promise<void> {
  const conv = await bridge['conversation.set-workspace']({ conversationId, path: folder });
  // The notice item arrives as an event; only the folder itself is taken from the answer.
  const current = useApp.getState().current;
  if (current?.conv.id === conversationId)
    useApp.setState({ current: { ...current, conv: { ...current.conv, workspace: conv.workspace } } });
  if (useWorkspace.getState().conversationId === conversationId) await useWorkspace.getState().moved();
}

export function workspaceInfo(conversationId: string): Promise<WorkspaceInfo> {
  return bridge['conversation.workspace-info']({ conversationId });
}

/** "…/workspaces/<id>": the end of a long path, which is the part that tells folders apart. */
export function shortPath(folder: string, segments = 2): string {
  const parts = folder.split(/[\\/]+/).filter(Boolean);
  if (parts.length <= segments) return folder;
  const sep = folder.includes('\\') && !folder.includes('/') ? '\\' : '/';
  return `…${sep}${parts.slice(-segments).join(sep)}`;
}
