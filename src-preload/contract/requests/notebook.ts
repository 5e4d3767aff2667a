import { z } from 'zod';
import { Conversation, Id } from '../model';
import { ConversationRef, Ok, type RequestSpec } from './shared';

// Jupyter notebooks: a conversation out as .ipynb, an .ipynb in as a new conversation, and
// "re-run all cells" to rebuild an imported notebook's state in the live session. The notebook
// mapping itself is src-main/core/notebook/ (see docs/notebooks.md).

import { MAX_NOTEBOOK_UPLOAD_BYTES } from '../limits';

export { MAX_NOTEBOOK_UPLOAD_BYTES };

const FileName = z.string().min(1, 'the file name is empty').max(1024);

/** Where an imported notebook's bytes come from: exactly one of these. */
export const NotebookSource = z.union([
  z.object({ text: z.string().max(MAX_NOTEBOOK_UPLOAD_BYTES, 'notebooks sent as text can be at most 20 MB') }).strict(),
  z
    .object({
      // base64 grows bytes by 4/3; the exact byte limit is checked after decoding.
      dataBase64: z.string().max(Math.ceil((MAX_NOTEBOOK_UPLOAD_BYTES * 4) / 3) + 4, 'notebooks uploaded as bytes can be at most 20 MB'),
    })
    .strict(),
  /** Desktop only: the notebook's absolute path on this machine (a dropped or chosen file). */
  z.object({ sourcePath: z.string().min(1).max(4096) }).strict(),
]);

export const NotebookRerunOutcome = z.enum(['completed', 'stopped', 'cancelled', 'failed']);

export const notebookRequests = {
  /** The conversation as nbformat 4.5 JSON text, ready to save as `fileName`. */
  'notebook.export': {
    input: ConversationRef,
    output: z.object({ fileName: z.string(), text: z.string() }),
  },
  /**
   * Desktop only: the export written where the person chooses in the OS Save dialog (savedTo; null when
   * cancelled). The request names no path: the dialog is the only source of one. Browser mode refuses
   * it: there the page downloads notebook.export's text.
   */
  'notebook.save-as': {
    input: ConversationRef,
    output: z.object({ savedTo: z.string().nullable() }),
  },
  /**
   * A new conversation from an .ipynb. Refused (with the reason, and nothing created) when the file is
   * over the size limit in settings, not a notebook, or breaks the format; `warnings` name what was
   * imported differently from how the notebook has it.
   */
  'notebook.import': {
    input: z.object({ fileName: FileName, source: NotebookSource }).strict(),
    output: z.object({ conversation: Conversation, warnings: z.array(z.string()) }),
  },
  /**
   * Starts running the conversation's code cells in order in its live session ("re-run all cells to
   * restore state"), from the `startAt`-th (0-based) to continue after a stop. Returns at once;
   * progress arrives as notebook.rerun-progress events and the end as notebook.rerun-done.
   */
  'notebook.rerun': {
    input: z.object({ conversationId: Id, startAt: z.number().int().nonnegative().optional() }).strict(),
    output: z.object({ n: z.number().int().nonnegative(), startAt: z.number().int().nonnegative() }),
  },
  /** Interrupts the running cell of a re-run and runs no more. */
  'notebook.rerun-stop': { input: ConversationRef, output: Ok },
} as const satisfies Record<string, RequestSpec>;

export type NotebookSource = z.infer<typeof NotebookSource>;
export type NotebookRerunOutcome = z.infer<typeof NotebookRerunOutcome>;
