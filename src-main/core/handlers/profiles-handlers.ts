import type { ProfileEntry } from '@contract';
import type { HandlerTable } from '../bridge/handler-table';
import { deleteProfile, listProfiles, profilePatch, readProfile, saveProfile } from '../profiles/profile-store';
import type { AppContext } from './app-context';

type ProfilesHandlers = Pick<HandlerTable, 'profiles.list' | 'profiles.save' | 'profiles.delete' | 'profiles.apply'>;

/**
 * Settings → Profiles and the conversation's profile selector (docs/agent.md#profiles). The store
 * checks every name (never a path) and every field; these only put it behind the dispatcher.
 */
export const profilesHandlers = (ctx: Pick<AppContext, 'agent' | 'settings' | 'dataDir'>): ProfilesHandlers => {
  const entries = (): ProfileEntry[] =>
    listProfiles(ctx.dataDir).map((name) => {
      try {
        return { name, profile: readProfile(ctx.dataDir, name) };
      } catch (err) {
        // Listed with its problem rather than dropped: the person can see it and delete or fix it.
        return { name, profile: null, error: err instanceof Error ? err.message : String(err) };
      }
    });
  return {
    'profiles.list': async () => entries(),
    'profiles.save': async ({ name, profile, previousName }) => {
      saveProfile(ctx.dataDir, name, profile);
      if (previousName !== undefined && previousName !== name) deleteProfile(ctx.dataDir, previousName);
      return entries();
    },
    'profiles.delete': async ({ name }) => {
      deleteProfile(ctx.dataDir, name);
      return entries();
    },
    'profiles.apply': async ({ name, conversationId }) => {
      const profile = readProfile(ctx.dataDir, name);
      // Checked before anything changes: an unknown conversation loses nothing.
      if (conversationId !== undefined) await ctx.agent.snapshot(conversationId);
      ctx.settings.update(profilePatch(profile));
      const namesModel = profile.provider !== undefined || profile.model !== undefined || profile.baseUrl !== undefined;
      if (conversationId !== undefined && namesModel) {
        // The conversation keeps its own model choice over Settings'; the profile's becomes that choice.
        const s = ctx.settings.get();
        await ctx.agent.setModel(conversationId, { provider: s.provider, model: s.model, baseUrl: s.baseUrl });
      }
      return { ok: true as const };
    },
  };
};
