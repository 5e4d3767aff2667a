import { z } from 'zod';
import { Id } from '../model';
import { Profile, ProfileName } from '../profiles';
import { Ok, type RequestSpec } from './shared';

// Profiles (docs/agent.md#profiles): kept in the sealed data folder, so only these requests (from the
// person's own window) and `oi` write them; nothing in a workspace names or changes one.

export const ProfileEntry = z.object({
  name: z.string(),
  /** Null when the file cannot be used; `error` then names the problem. */
  profile: Profile.nullable(),
  error: z.string().optional(),
});

export type ProfileEntry = z.infer<typeof ProfileEntry>;

export const profilesRequests = {
  /** Every profile in the data folder, sorted by name; a bad file is listed with its error, not dropped. */
  'profiles.list': { input: z.object({}).strict(), output: z.array(ProfileEntry) },
  /** Writes a profile whole. With `previousName`, a rename: the old file goes once the new one is written. */
  'profiles.save': {
    input: z.object({ name: ProfileName, profile: Profile, previousName: ProfileName.optional() }).strict(),
    output: z.array(ProfileEntry),
  },
  'profiles.delete': { input: z.object({ name: ProfileName }).strict(), output: z.array(ProfileEntry) },
  /**
   * Uses a profile. For a conversation: binds it to the profile (its instructions, auto-run, sandbox,
   * hooks and skills come from the profile at each of its turns; Settings is not changed), and the
   * profile's provider and model become the conversation's model, and Settings' model for new
   * conversations (as the model picker does) unless `keepSettings` (`oi --profile`: a run's choice
   * never reaches the settings file); `name: null` unbinds it (Settings again). Without a
   * conversation: the profile's settings go into Settings, as before.
   */
  'profiles.apply': {
    input: z.object({ name: ProfileName.nullable(), conversationId: Id.optional(), keepSettings: z.boolean().optional() }).strict(),
    output: Ok,
  },
} as const satisfies Record<string, RequestSpec>;
