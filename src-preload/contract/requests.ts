import { z } from 'zod';
import { Attachment, CellItem, Conversation, ConversationSummary, Id } from './model';
import { Settings, SettingsPatch } from './settings';

// Every request the renderer may make: name → { input, output }. Both transports validate the input
// with these schemas before a handler sees it, and reject names that are not here.

const Empty = z.object({}).strict();
const Ok = z.object({ ok: z.literal(true) });

const ConversationRef = z.object({ conversationId: Id }).strict();

export const requests = {
  'app.info': {
    input: Empty,
    output: z.object({ version: z.string(), platform: z.string(), transport: z.enum(['ipc', 'websocket']) }),
  },
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
  'chat.send': {
    input: z
      .object({
        conversationId: Id,
        text: z.string().min(1, 'the message is empty').max(1_000_000),
        attachments: z.array(Attachment).max(64).optional(),
      })
      .strict(),
    output: z.object({ userItemId: Id }),
  },
  'chat.stop': { input: ConversationRef, output: Ok },
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
  'cell.skip': {
    input: z.object({ conversationId: Id, cellId: Id }).strict(),
    output: Ok,
  },
  'cell.interrupt': {
    input: z.object({ conversationId: Id, cellId: Id }).strict(),
    output: Ok,
  },
  'settings.get': { input: Empty, output: Settings },
  'settings.set': { input: SettingsPatch, output: Settings },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

export type Requests = typeof requests;
export type RequestName = keyof Requests;
export type RequestInput<N extends RequestName> = z.input<Requests[N]['input']>;
export type RequestInputParsed<N extends RequestName> = z.output<Requests[N]['input']>;
export type RequestOutput<N extends RequestName> = z.output<Requests[N]['output']>;
export const requestNames = Object.keys(requests) as RequestName[];

export function isRequestName(name: unknown): name is RequestName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(requests, name);
}

/** The shape a cell has while it is shown, used by events that carry a whole cell. */
export type CellSnapshot = z.infer<typeof CellItem>;
