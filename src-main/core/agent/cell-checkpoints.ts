import type { CellChanges, CellItem, Conversation, Settings } from '@contract';
import { errorMessage } from '@contract';
import type { CheckpointService } from '../checkpoints/checkpoint-service';
import { changesForModel } from '../checkpoints/tree-changes';
import type { Skipped } from '../checkpoints/workspace-scan';
import { Languages } from '../exec';
import type { CheckpointWrites } from './checkpoint-writes';

/**
 * The checkpoints around one cell (docs/checkpoints.md): the workspace recorded before it runs and
 * after, so the cell shows what it changed and can be rewound. A checkpoint that fails never stops the
 * run; the cell says there is none and why.
 */
export type CellCheckpoint = { ok: true; skipped: Skipped[] } | { ok: false; note: string };

export async function checkpointBefore(
  service: CheckpointService | undefined,
  conv: Conversation,
  cell: CellItem,
): Promise<CellCheckpoint | null> {
  if (!service) return null;
  const kernel = conv.remoteKernel;
  if (kernel && Languages.findLanguage(kernel.language)?.name === Languages.findLanguage(cell.language)?.name) {
    return { ok: false, note: 'ran on a remote Jupyter kernel: its files are on that server, so there is no checkpoint to rewind to' };
  }
  try {
    return { ok: true, skipped: await service.before(conv, cell.id) };
  } catch (err) {
    return { ok: false, note: `no checkpoint could be taken before this cell (${errorMessage(err)})` };
  }
}

export async function checkpointAfter(
  service: CheckpointService | undefined,
  conv: Conversation,
  cell: CellItem,
  before: CellCheckpoint | null,
  settings: Settings,
  /** Where the list's write goes when it may finish behind the cell (a turn's step); else it is awaited. */
  behind?: CheckpointWrites,
): Promise<CellChanges | null> {
  if (!service || !before) return null;
  if (!before.ok) return { checkpointed: false, files: [], skipped: [], note: before.note };
  try {
    const early = await service.afterEarly(conv, cell.id, before.skipped);
    if (behind) behind.add(cell, early.recorded);
    else await early.recorded;
    const changes = early.changes;
    // Without the sandbox, code can write anywhere; only the workspace is checkpointed.
    return settings.sandbox.enabled
      ? changes
      : { ...changes, note: 'only the workspace is checkpointed: with no sandbox, files the code wrote elsewhere are not covered' };
  } catch (err) {
    return { checkpointed: false, files: [], skipped: [], note: `no checkpoint could be taken after this cell (${errorMessage(err)})` };
  }
}

export { changesForModel };
