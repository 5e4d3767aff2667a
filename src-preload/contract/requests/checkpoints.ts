import { z } from 'zod';
import { FileChange, Id, Unrestorable } from '../model';
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
  /** 'secret': a secrets-bearing file (`.env`, a key): changed, but its contents are not shown. */
  kind: z.enum(['text', 'image', 'binary', 'symlink', 'secret']),
  /** A unified diff for text (bounded); absent otherwise. */
  diff: z.string().optional(),
  /** data: URLs of an image before and after (small images only). */
  before: z.string().optional(),
  after: z.string().optional(),
  /** With `wholeText`, a text file's whole text before and after (null: absent on that side); absent when over the cap or not UTF-8. */
  oldText: z.string().nullable().optional(),
  newText: z.string().nullable().optional(),
});

/**
 * What the rewind cannot put back: paths the checkpoint saw but could not keep (an ignored folder, a file
 * over its cap) that changed or went since, and such paths made since (left as they are). The first 50.
 */
const cannotRestore = {
  cannotRestore: z.array(Unrestorable),
  cannotRestoreCount: z.number().int().nonnegative(),
};

export const checkpointRequests = {
  'checkpoints.list': {
    input: z.object({ conversationId: Id }).strict(),
    output: z.object({ checkpoints: z.array(CheckpointSummary), storeBytes: z.number().nonnegative() }),
  },
  'checkpoints.diff': {
    input: z.object({ conversationId: Id, cellId: Id, wholeText: z.boolean().optional() }).strict(),
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
      z.object({ status: z.literal('restored'), changedPaths: z.number().int().nonnegative(), ...cannotRestore }),
      z.object({ status: z.literal('needs-confirmation'), modifiedOutside: z.array(z.string()), ...cannotRestore }),
    ]),
  },
} as const satisfies Record<string, RequestSpec>;

export type FileDiff = z.infer<typeof FileDiff>;
