import { z } from 'zod';
import { describeIssues } from '@contract/bridge';

// Frames of browser mode's WebSocket. Requests carry an id the response echoes; events have none.

export const ClientFrame = z
  .object({
    type: z.literal('request'),
    id: z.number().int().nonnegative(),
    name: z.string().max(200),
    input: z.unknown(),
  })
  .strict();

export type ClientFrame = z.infer<typeof ClientFrame>;

/** A parsed frame, or what is wrong with it in words for the `bad frame:` answer. */
export function parseClientFrame(json: unknown): { ok: true; frame: ClientFrame } | { ok: false; problem: string } {
  const parsed = ClientFrame.safeParse(json);
  return parsed.success ? { ok: true, frame: parsed.data } : { ok: false, problem: describeIssues(parsed.error.issues) };
}

export type ServerFrame =
  | { type: 'response'; id: number | null; ok: true; result: unknown }
  | { type: 'response'; id: number | null; ok: false; error: { code: string; message: string } }
  | { type: 'event'; name: string; payload: unknown };
