import { z } from 'zod';
import { FileChange, Id } from '../model';
import { type RequestSpec } from './shared';

// Every run reversible (docs/checkpoints.md): the workspace as it was before each cell, what each cell
// changed, and rewinding to before any of them.

export const CheckpointSummary = z.object({
  cellId: Id,
  createdAt: z.string(),
  /** Files the cell changed (0 while it runs, or when it changed nothing). */
  changed: z.number().int().nonnegative(),
});

export const FileDiff = FileChange.extend({
  kind: z.enum(['text', 'image', 'binary', 'symlink']),
  /** A unified diff for text (bounded); absent otherwise. */
  diff: z.string().optional(),
  /** data: URLs of an image before and after (small images only). */
  before: z.string().optional(),
  after: z.string().optional(),
});

export const checkpointRequests = {
  'checkpoints.list': {
    input: z.object({ conversationId: Id }).strict(),
    output: z.object({ checkpoints: z.array(CheckpointSummary), storeBytes: z.number().nonnegative() }),
  },
  'checkpoints.diff': {
    input: z.object({ conversationId: Id, cellId: Id }).strict(),
    output: z.object({ files: z.array(FileDiff) }),
  },
  /**
   * Puts the workspace back as it was just before the cell ran. Files changed outside the app since the
   * app last saw them are listed first and kept unless `confirm`; the restore is itself checkpointed.
   * `cutConversation` also removes that cell and everything after it from the conversation.
   */
  'checkpoints.restore': {
    input: z.object({ conversationId: Id, cellId: Id, confirm: z.boolean().optional(), cutConversation: z.boolean().optional() }).strict(),
    output: z.discriminatedUnion('status', [
      z.object({ status: z.literal('restored'), changedPaths: z.number().int().nonnegative() }),
      z.object({ status: z.literal('needs-confirmation'), modifiedOutside: z.array(z.string()) }),
    ]),
  },
} as const satisfies Record<string, RequestSpec>;

export type FileDiff = z.infer<typeof FileDiff>;
