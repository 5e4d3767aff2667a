import { plainMessage } from '../../state/plain-error';
import { bridge } from '../../bridge/bridge';
import { useWorkspace } from '../../state/workspace-store';

/** Only the desktop app can hand a file to another app (browser mode downloads it instead). */
export const canOpenWith = (): boolean => Boolean(window.oi);

/** Windows shows its own "Open with" chooser; macOS and Linux open the file's default app. */
export const openWithLabel = (): string => (/Windows/.test(navigator.userAgent) ? 'Open with…' : 'Open in the default app');

/** Opens a workspace file in another app (main checks it first); a refusal shows above the file tree. */
export async function openWithOtherApp(relPath: string): Promise<void> {
  const conversationId = useWorkspace.getState().conversationId;
  if (!conversationId) return;
  try {
    await bridge['workspace.open-with']({ conversationId, path: relPath });
  } catch (err) {
    useWorkspace.setState({ treeError: plainMessage(err) });
  }
}
