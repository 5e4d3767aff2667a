import { z } from 'zod';
import { Id } from '../model';
import { Ok, type RequestSpec } from './shared';

// Plan mode (docs/agent.md#plan-mode): the switch, and the person's answer to a proposed plan.

export const planRequests = {
  /** Turns plan mode on or off for a conversation (the composer's switch, `/plan`, `oi --plan`); saved with it. */
  'conversation.set-plan-mode': {
    input: z.object({ conversationId: Id, planMode: z.boolean() }).strict(),
    output: Ok,
  },
  /**
   * The person's answer to a plan the model proposed (a `plan:propose` cell waiting for approval):
   * approve it, as proposed or with the steps edited, or reject it with a reason the model reads.
   */
  'plan.answer': {
    input: z
      .object({
        conversationId: Id,
        cellId: Id,
        approve: z.boolean(),
        /** The steps as the person edited them (approval only); absent: as proposed. */
        steps: z.array(z.string().trim().min(1, 'a step is empty').max(200, 'a step is at most 200 characters')).min(1).max(50).optional(),
        /** Why not (rejection only): the model reads it. */
        reason: z.string().max(4000).optional(),
      })
      .strict(),
    output: Ok,
  },
} as const satisfies Record<string, RequestSpec>;
