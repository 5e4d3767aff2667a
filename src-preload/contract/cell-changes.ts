import { z } from 'zod';

// What a cell changed in its workspace, and what a rewind cannot put back (docs/checkpoints.md): the
// checkpoint part of a cell, apart from model.ts's conversation shapes.

export const FileChange = z.object({
  path: z.string(),
  change: z.enum(['created', 'modified', 'deleted', 'renamed']),
  /** For a rename: where it was. */
  from: z.string().optional(),
  /** Bytes after the run (null when deleted) and before it (null when created). */
  size: z.number().nonnegative().nullable(),
  previousSize: z.number().nonnegative().nullable(),
});

/** A path a rewind cannot put back, and why (docs/checkpoints.md, "What is restored"). */
export const Unrestorable = z.object({
  path: z.string(),
  change: z.enum(['created', 'changed', 'deleted']),
  reason: z.string(),
});
export type Unrestorable = z.infer<typeof Unrestorable>;

/** A cell's effect on its workspace; the checkpoint before it is what a rewind restores. */
export const CellChanges = z.object({
  /** false: no checkpoint (a remote kernel, or checkpoints off); `note` says why. */
  checkpointed: z.boolean(),
  files: z.array(FileChange),
  /** Paths the checkpoints left out (size cap, unreadable, not a file), never silently. */
  skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
  note: z.string().optional(),
  /**
   * Paths the checkpoints could not keep (an ignored folder, an ignored or other file over its cap) that
   * the cell changed, deleted or created: a rewind cannot put them back. The first 50; the count is all.
   */
  unrestorable: z.array(Unrestorable).optional(),
  unrestorableCount: z.number().int().nonnegative().optional(),
});
export type FileChange = z.infer<typeof FileChange>;
export type CellChanges = z.infer<typeof CellChanges>;
