import { z } from 'zod';
import { HooksConfig } from './hooks';
import { ProviderKind } from './settings';

// A profile (docs/agent.md#profiles): a named set of settings kept in the data folder. The schema is
// here so that the store (src-main/core/profiles), the requests and Settings → Profiles check the same
// thing.

/** A profile's name: a file name of its own, never a path. */
export const ProfileName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'a profile name is 1-64 letters, digits, "_", "." or "-", starting with a letter or digit');

export const Profile = z
  .object({
    description: z.string().max(1000).optional(),
    provider: ProviderKind.optional(),
    model: z.string().min(1).max(256).optional(),
    baseUrl: z.string().url().optional(),
    /** Custom instructions for the model, in place of Settings' own. */
    instructions: z.string().max(100_000).optional(),
    autoRun: z.boolean().optional(),
    /** The sandbox on or off, as this profile's choice (a sandbox that cannot start then refuses to run code). */
    sandbox: z.boolean().optional(),
    /** Hooks in place of Settings' own (`<data folder>/hooks.json` still applies). */
    hooks: HooksConfig.optional(),
    /** The skills enabled under this profile, by name (the others are not offered nor loadable); absent: all. */
    skills: z.array(z.string().min(1).max(128)).max(500).optional(),
  })
  .strict();

export type Profile = z.infer<typeof Profile>;
