import { z } from 'zod';

// Hooks (docs/agent.md#hooks): commands the person configures, run at named points of a turn. The
// same shape in Settings (`settings.hooks`), in `<data folder>/hooks.json` and in a trusted
// workspace's `.agents/hooks.json` (there under a top-level "hooks" key).

export const HOOK_EVENTS = ['conversationStart', 'beforeModelCall', 'beforeCell', 'afterCell', 'needsPerson', 'turnEnd'] as const;
export const HookEvent = z.enum(HOOK_EVENTS);

/** Seconds a hook may take when it names no time limit of its own. */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 10;

export const HookSpec = z
  .object({
    /** A command line, run by the system's `sh -c`. */
    command: z.string().trim().min(1, 'a hook needs a command').max(8192),
    /**
     * A regular expression the event's subject must match whole for the hook to run: the cell's
     * language (beforeCell, afterCell) or what is waiting (needsPerson: `approval`, `input`).
     */
    matcher: z.string().max(512).optional(),
    /** Its time limit, in seconds (default DEFAULT_HOOK_TIMEOUT_SECONDS). */
    timeoutSeconds: z.number().min(0.1).max(600).optional(),
  })
  .strict();

export const HooksConfig = z.partialRecord(HookEvent, z.array(HookSpec).max(32));

/** The file's form: `{"hooks": {...}}`. */
export const HooksFile = z.object({ hooks: HooksConfig }).strict();

export type HookEvent = z.infer<typeof HookEvent>;
export type HookSpec = z.infer<typeof HookSpec>;
export type HooksConfig = z.infer<typeof HooksConfig>;
