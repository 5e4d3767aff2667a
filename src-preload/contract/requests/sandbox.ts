import { z } from 'zod';
import { Id } from '../model';
import { Empty, Ok, type RequestSpec } from './shared';

// What the sandbox setting really gives on this machine, for the top bar and the settings screen:
// never more than what holds (see docs/sandbox.md).

export const SandboxStatus = z.object({
  /** Whether code runs sandboxed: the person's choice, or this machine's default. */
  enabled: z.boolean(),
  /** `enabled` is the default (on wherever the sandbox works), not the person's choice. */
  byDefault: z.boolean(),
  /** Whether this machine can sandbox at all (bubblewrap on Linux, sandbox-exec on macOS). */
  available: z.boolean(),
  tool: z.enum(['bubblewrap', 'sandbox-exec']).nullable(),
  /** The sentence shown with every run while the sandbox is on; null while it is off. */
  description: z.string().nullable(),
  /** Why it is unavailable, when it is, and how to make it work. */
  reason: z.string().nullable(),
  /** The description's protections, one phrase each; empty while the sandbox is off or unavailable. */
  protections: z.array(z.string()),
  /** What the code can still reach (core/exec/sandbox/sandbox-gaps.ts); also filled while the sandbox is off. */
  notProtected: z.array(z.string()),
  /** The sentence a confirmation shows before code runs without asking ("No sandbox: code will run as you…"). */
  autoRunWarning: z.string(),
});

export const sandboxRequests = {
  'sandbox.status': { input: Empty, output: SandboxStatus },
  /**
   * The answer to `network.awaiting-approval`: let the conversation's sandboxed code reach the host
   * for the rest of the conversation, always (kept in settings.sandbox.allowedHosts), or not.
   */
  'network.answer': {
    input: z.object({ conversationId: Id, questionId: Id, answer: z.enum(['conversation', 'always', 'deny']) }).strict(),
    output: Ok,
  },
} as const satisfies Record<string, RequestSpec>;

export type SandboxStatus = z.infer<typeof SandboxStatus>;
