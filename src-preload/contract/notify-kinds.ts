import { z } from 'zod';

// The moments that may call the person back (notifications.ts maps events to them). A module of its
// own so that settings.ts can name them without importing the events notifications.ts reads.
export const NotifyKind = z.enum(['turn-done', 'turn-failed', 'approval', 'input']);
export type NotifyKind = z.infer<typeof NotifyKind>;
