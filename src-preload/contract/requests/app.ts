import { z } from 'zod';
import { Empty, Ok, type RequestSpec } from './shared';

export const appRequests = {
  'app.info': {
    input: Empty,
    output: z.object({
      version: z.string(),
      platform: z.string(),
      transport: z.enum(['ipc', 'websocket', 'cli']),
      /** Where keys are kept: the OS keychain, or memory for this run only when none is reachable. */
      secretStorage: z.enum(['keychain', 'memory']),
      /** Things the user must know from start-up (settings reset, no keychain…). */
      notices: z.array(z.string()),
    }),
  },
  /**
   * The page is usable (its state loaded, the window drawn): the app starts its warm-up now
   * (App.warmUp), which before would have competed with the page for the machine. Repeats do nothing.
   */
  'app.ready': { input: Empty, output: Ok },
} as const satisfies Record<string, RequestSpec>;
