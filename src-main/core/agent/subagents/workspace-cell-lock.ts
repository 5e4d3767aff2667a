import path from 'node:path';
import type { CellChanges, CellItem } from '@contract';
import { errorMessage } from '@contract';
import type { CheckpointService } from '../../checkpoints/checkpoint-service';
import type { LiveConversation } from '../live-conversation';

// Sub-agents work in their parent's folder, several at once. A cell's checkpoints are the workspace
// before and after it (docs/checkpoints.md): were two sub-agents' cells to run at the same time, each
// one's "after" would hold the other's writes, its changes would list them, and rewinding it would
// undo the other's work too. So the cells of sub-agents are serialized per workspace: one runs, with
// its two checkpoints, before the next starts. Their model calls, the slow part, still run in parallel.
// Separate copies merged by the parent were the other way: they cost a copy of the folder per
// sub-agent (a repository, a data set), and two sub-agents changing one file would leave the parent a
// merge conflict to settle — and the person a rewind that no longer matches one cell.

const tails = new Map<string, Promise<void>>();

/**
 * Runs `body` once no other cell of a sub-agent family runs in the workspace; a conversation with no
 * sub-agent running (and not one itself) is not held. `beforeTurn` (the cell's session start) runs
 * first, outside the lock: it changes nothing in the workspace, and under the lock each sub-agent's
 * first cell held all the others up while its session started.
 */
export async function withWorkspaceCell<T>(
  live: LiveConversation,
  body: () => Promise<T>,
  beforeTurn?: () => Promise<void> | undefined,
): Promise<T> {
  if (!live.subagent && live.subagentsRunning === 0) return body();
  await beforeTurn?.();
  const key = path.resolve(live.conv.workspace);
  const before = tails.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const tail = before.then(() => mine);
  tails.set(key, tail);
  await before;
  try {
    return await body();
  } finally {
    release();
    if (tails.get(key) === tail) tails.delete(key);
  }
}

/**
 * A sub-agent started without write access changed the workspace: put it back as it was before the
 * cell (its own checkpoint, taken inside the lock, so nothing of another sub-agent's is undone), and
 * return what the model is told. Files written outside the workspace are the sandbox's to prevent.
 */
export async function undoReadOnlyChanges(
  live: LiveConversation,
  checkpoints: CheckpointService | undefined,
  cell: CellItem,
  changes: CellChanges | null,
): Promise<string> {
  if (!live.subagent || live.subagent.mayWrite || !changes || changes.files.length === 0) return '';
  const listed = changes.files
    .slice(0, 10)
    .map((f) => f.path)
    .join(', ');
  if (!checkpoints || !changes.checkpointed)
    return `\n\nYou may not change files, but this cell changed ${listed}, and it could not be undone.`;
  try {
    await checkpoints.restore(live.conv, cell.id, true);
    return `\n\nYou may not change files (you were started read-only), so what this cell changed was put back: ${listed}.`;
  } catch (err) {
    return `\n\nYou may not change files, but this cell changed ${listed}, and putting it back failed (${errorMessage(err)}).`;
  }
}
