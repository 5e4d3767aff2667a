import { z } from 'zod';
import { Conversation, ConversationSummary } from '../model';
import { ConversationRef, type RequestSpec } from './shared';

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
} as const satisfies Record<string, RequestSpec>;
