import { z } from 'zod';
import { Conversation, ConversationSummary, Id } from '../model';
import { ConversationRef, Ok, type RequestSpec } from './shared';

export const conversationRequests = {
  'conversation.create': {
    input: z.object({ title: z.string().max(500).optional() }).strict(),
    output: Conversation,
  },
  'conversation.list': {
    input: z.object({ query: z.string().max(500).optional() }).strict(),
    output: z.array(ConversationSummary),
  },
  'conversation.get': {
    input: ConversationRef,
    output: Conversation,
  },
  'conversation.rename': {
    input: z.object({ conversationId: Id, title: z.string().min(1, 'the title is empty').max(500) }).strict(),
    output: ConversationSummary,
  },
  /** Deletes the conversation's file (its workspace folder and the files in it stay). */
  'conversation.delete': { input: ConversationRef, output: Ok },
  /** Removes the last user message and everything after it; refused while a turn runs. */
  'conversation.undo': { input: ConversationRef, output: Conversation },
  /**
   * A new conversation from a saved file: Open Interpreter's LMC messages (a JSON array of
   * {role, type, format?, content}), its older {role, message, code, output} form, or a conversation
   * this app wrote. `json` is the file's text.
   */
  'conversation.import': {
    input: z.object({ json: z.string().min(2).max(64_000_000), title: z.string().max(500).optional() }).strict(),
    output: Conversation,
  },
  /** The conversation as LMC messages (JSON text), which Open Interpreter and `conversation.import` read. */
  'conversation.export-lmc': { input: ConversationRef, output: z.object({ json: z.string() }) },
} as const satisfies Record<string, RequestSpec>;
