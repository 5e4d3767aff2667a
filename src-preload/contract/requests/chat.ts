import { z } from 'zod';
import { Attachment, Id, StreamOutput } from '../model';
import { SAVED_OUTPUT_MAX_LINES } from '../limits';
import { ConversationRef, Ok, type RequestSpec } from './shared';

export const chatRequests = {
  'chat.send': {
    input: z
      .object({
        conversationId: Id,
        /** May be empty when attachments go alone. */
        text: z.string().max(1_000_000),
        attachments: z.array(Attachment).max(64).optional(),
      })
      .strict()
      .refine((m) => m.text.trim() !== '' || (m.attachments?.length ?? 0) > 0, { message: 'the message is empty', path: ['text'] }),
    output: z.object({ userItemId: Id }),
  },
  'chat.stop': { input: ConversationRef, output: Ok },
  /** Replaces the last user message with `text`, drops what answered it, and starts a new turn. */
  'chat.edit-last': {
    input: z.object({ conversationId: Id, text: z.string().min(1, 'the message is empty').max(1_000_000) }).strict(),
    output: z.object({ userItemId: Id }),
  },
  /** Drops the answer to the last user message and asks the model again. */
  'chat.regenerate': { input: ConversationRef, output: Ok },
  'cell.approve': {
    input: z
      .object({
        conversationId: Id,
        cellId: Id,
        /** Edited code; runs instead of what the model wrote. */
        code: z.string().max(1_000_000).optional(),
        /** "Always run in this conversation". */
        always: z.boolean().optional(),
      })
      .strict(),
    output: Ok,
  },
  /** `unasked`: nobody could be asked (oi -m without a terminal); the model is told that, not that the person declined. */
  'cell.skip': {
    input: z.object({ conversationId: Id, cellId: Id, unasked: z.boolean().optional() }).strict(),
    output: Ok,
  },
  'cell.interrupt': {
    input: z.object({ conversationId: Id, cellId: Id }).strict(),
    output: Ok,
  },
  /** Turns "always run in this conversation" on or off (the chip's way back; on is confirmed in the UI first). */
  'conversation.set-auto-run': {
    input: z.object({ conversationId: Id, autoRun: z.boolean() }).strict(),
    output: Ok,
  },
  /** Turns computer use on or off for one conversation (docs/computer-use.md); refused where it cannot work, saying why. */
  'conversation.set-computer-use': {
    input: z.object({ conversationId: Id, on: z.boolean() }).strict(),
    output: Ok,
  },
  /**
   * Whether computer use can work here, and if not why (Settings and the switch show it); and whether the
   * model now chosen in Settings sees images (the catalog's vision flag), without which it is not offered.
   */
  'computer.support': {
    input: z.object({}).strict(),
    output: z.object({ available: z.boolean(), reason: z.string().nullable(), model: z.string(), modelSees: z.boolean() }),
  },
  /** Answers a `cell.input-requested` question: a line (without its newline), or end-of-input. */
  'cell.input': {
    input: z
      .object({
        conversationId: Id,
        questionId: Id,
        text: z.string().max(1_000_000).optional(),
        eof: z.literal(true).optional(),
      })
      .strict()
      .refine((v) => (v.text === undefined) !== (v.eof === undefined), { message: 'give either text or eof' }),
    output: Ok,
  },
  /** Keys typed into a running cell's live terminal (a full-screen prompt, an answer typed by hand). */
  'cell.terminal-input': {
    input: z.object({ conversationId: Id, cellId: Id, data: z.string().min(1).max(65_536) }).strict(),
    output: Ok,
  },
  /**
   * Rows a finished cell's text block leaves out on the page (its `cut`-th marker, counting from 0):
   * the `count` rows after the first `from` of them, with how many are left after these. The page is
   * sent only the rows it draws; this is how the rest is reached, a page at a time.
   */
  'cell.output-rows': {
    input: z
      .object({
        conversationId: Id,
        cellId: Id,
        cut: z.number().int().nonnegative(),
        from: z.number().int().nonnegative(),
        count: z.number().int().positive().max(SAVED_OUTPUT_MAX_LINES),
      })
      .strict(),
    output: z.object({ outputs: z.array(StreamOutput), rowsLeft: z.number().int().nonnegative() }),
  },
  'install.answer': {
    input: z.object({ conversationId: Id, questionId: Id, install: z.boolean() }).strict(),
    output: Ok,
  },
} as const satisfies Record<string, RequestSpec>;
