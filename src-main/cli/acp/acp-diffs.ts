import path from 'node:path';
import type { ToolCallContent } from '@agentclientprotocol/sdk';
import type { FileDiff } from '@contract';

// A run's file changes as ACP `diff` content, from its checkpoints (docs/checkpoints.md): the editor
// shows them in its own diff view. The files not sent this way (binary, secret, deleted, over the
// size cap, past the count cap) stay named in the cell's "Files:" line (acp-cells.ts).

/** The most files a cell's tool call carries as diffs (each side of each is at most MAX_WHOLE_TEXT_BYTES). */
export const MAX_DIFF_FILES = 20;

export function diffContents(files: FileDiff[], workspace: string): ToolCallContent[] {
  const out: ToolCallContent[] = [];
  for (const file of files) {
    if (out.length >= MAX_DIFF_FILES) break;
    // ACP's diff has no deleted side (newText is a string): a deleted file is named only.
    if (file.kind !== 'text' || typeof file.newText !== 'string' || file.oldText === undefined) continue;
    out.push({ type: 'diff', path: path.join(workspace, file.path), oldText: file.oldText, newText: file.newText });
  }
  return out;
}
