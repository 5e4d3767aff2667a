import { z } from 'zod';
import { AssistantItem, CellItem, CellOutput, CellStatus, ConversationItem, ConversationSummary, Id, NoticeItem, RunLimits, Usage } from './model';

// Every event main sends to the renderer: name → payload schema. Events are only ever sent by main,
// so they are validated in tests rather than on every send (output bursts are hot).

const Conv = { conversationId: Id };

export const events = {
  /** An item was added to a conversation (user message, assistant text, cell, notice). */
  'item.added': z.object({ ...Conv, item: ConversationItem }),
  'assistant.delta': z.object({ ...Conv, itemId: Id, text: z.string() }),
  'assistant.done': z.object({ ...Conv, item: AssistantItem }),
  /** The model is writing code: `code` is the whole code so far (parsed from partial tool arguments). */
  'cell.code': z.object({ ...Conv, cellId: Id, language: z.string(), code: z.string() }),
  'cell.awaiting-approval': z.object({ ...Conv, cell: CellItem }),
  'cell.running': z.object({ ...Conv, cellId: Id, code: z.string(), startedAt: z.string(), limits: RunLimits, executionCount: z.number().int() }),
  /** Raw terminal bytes (as text) for the cell's terminal view, batched. */
  'cell.terminal': z.object({ ...Conv, cellId: Id, data: z.string() }),
  /** A structured output (rich display, execute_result, error). */
  'cell.output': z.object({ ...Conv, cellId: Id, output: CellOutput }),
  'cell.done': z.object({ ...Conv, cell: CellItem, status: CellStatus }),
  'turn.start': z.object({ ...Conv }),
  'turn.end': z.object({
    ...Conv,
    reason: z.enum(['done', 'stopped', 'error', 'attempts-exhausted', 'budget', 'awaiting-user']),
    usage: Usage,
  }),
  'notice': z.object({ ...Conv, item: NoticeItem }),
  'conversation.updated': z.object({ summary: ConversationSummary }),
  /** Files in the conversation's workspace changed (batched; paths relative, '/'-separated). */
  'workspace.changed': z.object({ ...Conv, paths: z.array(z.string()) }),
  'error': z.object({ conversationId: Id.nullable(), message: z.string(), code: z.string() }),
} as const satisfies Record<string, z.ZodType>;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<N extends EventName> = z.infer<Events[N]>;
export const eventNames = Object.keys(events) as EventName[];

/** One envelope for every event, so a transport can forward them without knowing their names. */
export type AnyEvent = { [N in EventName]: { name: N; payload: EventPayload<N> } }[EventName];
