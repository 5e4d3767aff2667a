import { z } from 'zod';
import { Empty, type RequestSpec } from './shared';

// Memory (docs/agent.md#memory): the notes the model saved, in `<data folder>/memory.md`, which the
// person reads and edits in Settings → Memory.

const MemoryState = z.object({ path: z.string(), text: z.string() });

export const memoryRequests = {
  /** The memory file and its text ('' when there is none yet). */
  'memory.read': { input: Empty, output: MemoryState },
  /** Replaces the file's text (at most 32 KB). */
  'memory.write': { input: z.object({ text: z.string().max(32 * 1024) }).strict(), output: MemoryState },
} as const satisfies Record<string, RequestSpec>;
