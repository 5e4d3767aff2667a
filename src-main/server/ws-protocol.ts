import { z } from 'zod';

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

export type ServerFrame =
  | { type: 'response'; id: number | null; ok: true; result: unknown }
  | { type: 'response'; id: number | null; ok: false; error: { code: string; message: string } }
  | { type: 'event'; name: string; payload: unknown };
