import { errorMessage, type CellItem } from '@contract';

/**
 * The checkpoint lists a step's cells are still writing when the cells end (checkpoint-service.ts,
 * afterEarly): the step's last save of the conversation is written at the same time instead of after
 * them, and the step ends once both are on disk (docs/agent.md#saving). A list that could not be
 * written leaves its cell saying so, as a failed checkpoint always did.
 */
export class CheckpointWrites {
  private readonly writes: Array<Promise<void>> = [];
  private readonly failed: Array<{ cell: CellItem; error: unknown }> = [];

  add(cell: CellItem, recorded: Promise<void>): void {
    this.writes.push(recorded.catch((error: unknown) => void this.failed.push({ cell, error })));
  }

  /** Waits for every list; the cells whose list failed are marked. True when any was (save again). */
  async settle(): Promise<boolean> {
    await Promise.all(this.writes.splice(0));
    const failed = this.failed.splice(0);
    for (const { cell, error } of failed) {
      const note = `no checkpoint could be taken after this cell (${errorMessage(error)})`;
      cell.changes = { checkpointed: false, files: [], skipped: [], note };
      cell.resultForModel = `${cell.resultForModel ?? ''}\n\nNote: ${note}; it cannot be rewound.`;
    }
    return failed.length > 0;
  }
}
