import { z } from 'zod';
import { Empty, type RequestSpec } from './shared';

export const appRequests = {
  'app.info': {
    input: Empty,
    output: z.object({
      version: z.string(),
      platform: z.string(),
      transport: z.enum(['ipc', 'websocket']),
      /** Where keys are kept: the OS keychain, or memory for this run only when none is reachable. */
      secretStorage: z.enum(['keychain', 'memory']),
      /** Things the user must know from start-up (settings reset, no keychain…). */
      notices: z.array(z.string()),
    }),
  },
} as const satisfies Record<string, RequestSpec>;
