import { z } from 'zod';
import { Id, InstructionFile } from '../model';
import { ConversationRef, type RequestSpec } from './shared';

// Project instructions (AGENTS.md; docs/agent.md#project-instructions): what is in effect for a
// conversation, shown above it, each file one click from its text, and the person's trust of the
// workspace's folder, without which its files are not given to the model.

export const InstructionsState = z.object({
  files: z.array(InstructionFile),
  /** The folder whose trust lets the workspace's files in: the repository root, else the workspace. */
  trustFolder: z.string(),
  trusted: z.boolean(),
  /**
   * The workspace's hooks file (`.agents/hooks.json`, docs/agent.md#hooks), shown beside the AGENTS.md
   * files so that a folder with hooks alone can be read and trusted too; `used` once it is trusted.
   */
  hooksFile: z.object({ path: z.string(), used: z.boolean() }).nullable(),
});

export const instructionsRequests = {
  'instructions.list': { input: ConversationRef, output: InstructionsState },
  /** The text of one of the listed files, or of the hooks file (no other path is read). */
  'instructions.read': {
    input: z.object({ conversationId: Id, path: z.string().min(1).max(4096) }).strict(),
    output: z.object({ text: z.string(), cut: z.boolean() }),
  },
  /** The person trusts the conversation's folder (trustFolder): its AGENTS.md files reach the model from the next call. */
  'instructions.trust': { input: ConversationRef, output: InstructionsState },
} as const satisfies Record<string, RequestSpec>;

export type InstructionsState = z.infer<typeof InstructionsState>;
