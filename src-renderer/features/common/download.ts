import { bridge } from '../../bridge/bridge';
import { useWorkspace } from '../../state/workspace-store';
import { plainMessage } from '../../state/plain-error';

/** Browser mode's download route for a workspace file (src-main/server/file-download.ts). */
export function workspaceFileHref(conversationId: string, relPath: string): string {
  return `/files/${encodeURIComponent(conversationId)}/${relPath.split('/').map(encodeURIComponent).join('/')}`;
}

// What a refused HEAD means; its body (the server's own words) is not sent for HEAD.
const REFUSED: Record<number, string> = {
  401: 'this page’s session is no longer valid: open the URL printed at launch again',
  403: 'only regular files inside the workspace can be downloaded',
  404: 'the file no longer exists',
};

/**
 * Saves a copy of a workspace file on the user's machine. Desktop: the OS Save dialog (main copies the
 * file). Browser mode: the browser downloads it from our server, the HttpOnly token cookie going along
 * because the link is same-origin. A refusal shows above the file tree.
 */
export async function downloadWorkspaceFile(relPath: string): Promise<void> {
  const conversationId = useWorkspace.getState().conversationId;
  if (!conversationId) return;
  try {
    if (window.oi) {
      await bridge['workspace.save-copy']({ conversationId, path: relPath });
      return;
    }
    const href = workspaceFileHref(conversationId, relPath);
    // Asked first so a refusal is explained here rather than as "Failed" in the browser's downloads.
    const head = await fetch(href, { method: 'HEAD', cache: 'no-store', credentials: 'same-origin' });
    if (!head.ok) throw new Error(`could not download ${relPath}: ${REFUSED[head.status] ?? `the server answered ${head.status}`}`);
    const link = document.createElement('a');
    link.href = href;
    link.download = relPath.slice(relPath.lastIndexOf('/') + 1);
    link.rel = 'noopener';
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
  } catch (err) {
    useWorkspace.setState({ treeError: plainMessage(err) });
  }
}
