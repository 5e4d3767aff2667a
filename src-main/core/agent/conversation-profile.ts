import type { Conversation, Profile, Settings } from '@contract';
import { errorMessage } from '@contract';
import type { LiveConversation } from './live-conversation';

export type { BoundProfile } from './live-conversation';

// A conversation bound to a profile (docs/agent.md#profiles): its settings come from the profile, read
// again at each of its turns (so an edited profile counts at the next), over Settings; its model is the
// conversation's own choice, which applying the profile set. A profile is read from the data folder
// only (profile-store.ts), by name: a workspace cannot define or change one. A profile that can no
// longer be read (deleted, made invalid) stops the turn with the problem named, rather than running
// on Settings the person did not choose for this conversation.

/** Reads a profile by name from the data folder (profile-store.ts readProfile); throws naming the problem. */
export type ProfileReader = (name: string) => Profile;

/** Settings with the conversation's profile over them; `live.profile` is set to what the profile adds. */
export function withConversationProfile(live: LiveConversation, settings: Settings, read: ProfileReader | undefined): Settings {
  const name = live.conv.profile;
  if (!name || !read) {
    live.profile = null;
    return settings;
  }
  let profile: Profile;
  try {
    profile = read(name);
  } catch (err) {
    live.profile = null;
    throw new Error(`this conversation's profile cannot be used (${errorMessage(err)}); choose another profile, or none, for it`, {
      cause: err,
    });
  }
  live.profile = { name, skills: profile.skills ?? null, hooks: profile.hooks ?? null };
  return {
    ...settings,
    ...(profile.instructions !== undefined ? { customInstructions: profile.instructions } : {}),
    ...(profile.autoRun !== undefined ? { autoRun: profile.autoRun } : {}),
    ...(profile.sandbox !== undefined ? { sandbox: { ...settings.sandbox, enabled: profile.sandbox, chosen: true } } : {}),
    ...(profile.hooks !== undefined ? { hooks: profile.hooks } : {}),
  };
}

/** The sandbox a run of this conversation gets: the profile's choice over Settings' (the exec wrapper's forRun). */
export function profileSandbox<S extends { enabled: boolean; chosen?: boolean }>(
  conv: Conversation | undefined,
  sandbox: S,
  read: ProfileReader,
): S {
  if (!conv?.profile) return sandbox;
  try {
    const chosen = read(conv.profile).sandbox;
    return chosen === undefined ? sandbox : { ...sandbox, enabled: chosen, chosen: true };
  } catch {
    // The turn stops on an unreadable profile; a run outside a turn keeps the safer of the two.
    return { ...sandbox, enabled: true, chosen: true };
  }
}

/** The skills a conversation may use: all found, or those its profile enables. */
export function profileSkills<T extends { name: string }>(live: Pick<LiveConversation, 'profile'> | null, skills: T[]): T[] {
  const only = live?.profile?.skills;
  return only ? skills.filter((s) => only.includes(s.name)) : skills;
}
