import { z } from 'zod';
import { Empty, type RequestSpec } from './shared';

export const appRequests = {
  'app.info': {
    input: Empty,
    output: z.object({ version: z.string(), platform: z.string(), transport: z.enum(['ipc', 'websocket']) }),
  },
} as const satisfies Record<string, RequestSpec>;
