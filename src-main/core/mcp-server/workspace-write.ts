import { holdFolder, writeNewFileBeneath } from '../fs/no-follow-open';
import { resolveInWorkspace } from '../workspace/resolve-in-workspace';

/**
 * Writes `content` at a workspace path, replacing what is there: `..`, absolute paths and links
 * leading out are refused; folders on the way are made one at a time inside the one held before; a
 * link at the path itself is removed and replaced, never written through. Returns the path written.
 */
export async function writeWorkspaceText(workspace: string, rel: string, content: string): Promise<string> {
  const { realRoot, segments } = await resolveInWorkspace(workspace, rel, { followFinal: false });
  await (await holdFolder(realRoot, segments.slice(0, -1), { create: true })).close();
  await writeNewFileBeneath(realRoot, segments, content, { replace: true });
  return segments.join('/');
}
