import { z } from 'zod';

// Outside ACP agents a conversation can be driven by (docs/acp.md#hosting): Settings → Agents keeps a
// command line per agent; a conversation names the agent that answers it and, once started, the
// agent's session id (so it can be loaded again where the agent supports session/load).

export const AgentName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]*$/, 'an agent name is letters, digits, spaces, ".", "_" and "-" (at most 64)');

export const HostedAgentSpec = z
  .object({
    /** The program: an absolute path, or a name looked up in the system folders and PATH (never in the home or a workspace). */
    command: z.string().trim().min(1, 'an agent needs a command').max(4096),
    args: z.array(z.string().max(4096)).max(64),
    /** Variables for the agent alone (a base URL, a model). Not for keys: settings are shown on the page; use `key`. */
    env: z.record(
      z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a variable name')
        .max(128),
      z.string().max(4096),
    ),
    /** The app's stored key for this provider, given to the agent as ANTHROPIC_API_KEY or OPENAI_API_KEY. */
    key: z.enum(['anthropic', 'openai']).nullable(),
  })
  .strict();

/** What a hosted conversation records of its agent. */
export const HostedAgentRef = z.object({ name: AgentName, sessionId: z.string().max(1024).nullable() });

export type HostedAgentSpec = z.infer<typeof HostedAgentSpec>;
export type HostedAgentRef = z.infer<typeof HostedAgentRef>;
