import { applySettingsPatch, type ProfileEntry } from '@contract';
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
    'profiles.apply': async ({ name, conversationId, keepSettings }) => {
      if (name === null) {
        if (conversationId === undefined) throw new Error('no profile named, and no conversation to take one off');
        await ctx.agent.setProfile(conversationId, null);
        return { ok: true as const };
      }
      const profile = readProfile(ctx.dataDir, name);
      if (conversationId === undefined) {
        ctx.settings.update(profilePatch(profile));
        return { ok: true as const };
      }
      // Checked before anything changes: an unknown conversation loses nothing.
      await ctx.agent.snapshot(conversationId);
      const namesModel = profile.provider !== undefined || profile.model !== undefined || profile.baseUrl !== undefined;
      if (namesModel) {
        // The conversation keeps its own model choice over Settings'; the profile's becomes that choice
        // (and Settings' model for new conversations, as the model picker does, unless the caller keeps
        // Settings as they are: `oi --profile`, whose flags never reach the settings file).
        const { provider, model, baseUrl } = profilePatch(profile);
        const patch = { ...(provider ? { provider } : {}), ...(model ? { model } : {}), ...(baseUrl ? { baseUrl } : {}) };
        const s = keepSettings ? applySettingsPatch(ctx.settings.get(), patch) : ctx.settings.update(patch);
        await ctx.agent.setModel(conversationId, { provider: s.provider, model: s.model, baseUrl: s.baseUrl });
      }
      // Its other settings come from the profile at each turn (agent/conversation-profile.ts), Settings unchanged.
      await ctx.agent.setProfile(conversationId, name);
      return { ok: true as const };
    },
  };
};
