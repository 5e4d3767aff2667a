import { z } from 'zod';
import { Id } from '../model';
import { type RequestSpec } from './shared';

// Saved commands (docs/agent.md#saved-commands): markdown files in the data folder's commands/ or a
// workspace's .agents/commands/ (.claude/commands/), offered as /name in the composer and in oi.

export const SavedCommandInfo = z.object({
  /** The file's name without `.md`: typed as /name. */
  name: z.string(),
  /** The front matter's description, else the body's first line; '' when not read (untrusted). */
  description: z.string(),
  /** The front matter's `argument-hint` ("<issue> [priority]"), shown where the arguments are typed. */
  argumentHint: z.string().nullable(),
  /** Its text uses $ARGUMENTS or $1…$9. */
  takesArguments: z.boolean(),
  source: z.enum(['user', 'workspace']),
  /** The file, absolute. */
  path: z.string(),
  /** Offered: the person's own always, a workspace's once the person trusts its folder. */
  trusted: z.boolean(),
  /** Why it cannot be used (bad front matter, a link, too long, a name taken), or null. */
  broken: z.string().nullable(),
});

export const commandsRequests = {
  /** The person's commands and, given a conversation, its workspace's (untrusted ones listed, not read). */
  'commands.list': {
    input: z.object({ conversationId: Id.optional() }).strict(),
    output: z.object({ commands: z.array(SavedCommandInfo), userFolder: z.string(), trustFolder: z.string().nullable() }),
  },
  /**
   * The text of `/name` with what was typed after it, as the person's next message; null when no usable
   * command has that name (the text is then a message like any other).
   */
  'commands.expand': {
    input: z.object({ conversationId: Id.optional(), name: z.string().min(1).max(64), arguments: z.string().max(32_768) }).strict(),
    output: z.object({ text: z.string().nullable(), path: z.string().nullable() }),
  },
} as const satisfies Record<string, RequestSpec>;

export type SavedCommandInfo = z.infer<typeof SavedCommandInfo>;
