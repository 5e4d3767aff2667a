import { z } from 'zod';
import { Id } from '../model';

export const Empty = z.object({}).strict();
export const Ok = z.object({ ok: z.literal(true) });
export const ConversationRef = z.object({ conversationId: Id }).strict();

/** A request's schemas. Each feature file exports a record of these; requests.ts merges them. */
export type RequestSpec = { input: z.ZodType; output: z.ZodType };
