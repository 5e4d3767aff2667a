import { z } from 'zod';

// Plan mode and the task list (docs/agent.md#plan-mode, #task-list): what a conversation keeps of
// them, shared by main, the renderer, the CLI and notebook export. Zod-free helpers the renderer takes
// values from are in plan-text.ts.

/** A step's state: `pending` (added), `active` (started), `done`, `dropped` (given up, kept for the record). */
export const TaskState = z.enum(['pending', 'active', 'done', 'dropped']);

/** One step of the live task list. */
export const Task = z.object({
  /** 1, 2, 3… in the order the steps were added; never reused in a conversation. */
  id: z.number().int().positive(),
  title: z.string().min(1).max(200),
  state: TaskState,
});

export type TaskState = z.infer<typeof TaskState>;
export type Task = z.infer<typeof Task>;
