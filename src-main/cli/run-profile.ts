import type { Conversation, Profile, SettingsPatch } from '@contract';
import type { App } from '../core/app';
import { localRequests } from '../core/bridge/local-requests';
import { profilePatch, readProfile } from '../core/profiles/profile-store';
import type { OverlaySettingsStore } from './overlay-settings-store';

// `oi --profile NAME` binds the conversation to the profile the way the app's Profile menu does (the
// one `profiles.apply` request, docs/agent.md#profiles), so `oi --continue` and the app show and use it
// at its later turns. The run's flags stay on top: of the model (the conversation's choice is set from
// them afterwards) and, through the app's profile reader, of auto-run and the sandbox.

/** The flags that go over a bound profile's fields at every turn of this run. */
export function profileFlags(overrides: SettingsPatch): Pick<Profile, 'autoRun' | 'sandbox'> {
  return {
    ...(overrides.autoRun !== undefined ? { autoRun: overrides.autoRun } : {}),
    ...(overrides.sandbox?.enabled !== undefined ? { sandbox: overrides.sandbox.enabled } : {}),
  };
}

/**
 * Binds the conversation to `name` (Settings' own model unchanged), or, without one, takes the profile
 * the conversation is bound to under the flags, as `--profile` would: what this run shows (the banner's
 * auto-run, the sandbox warning) is what its turns use, and the profile's base URL is where this run's
 * key may go (the person wrote it in the data folder, as they write Settings). The conversation's model
 * stays its own choice.
 */
export async function bindRunProfile(
  app: App,
  settings: OverlaySettingsStore,
  dataDir: string,
  conversation: Conversation,
  name: string | null,
): Promise<Conversation> {
  const requests = localRequests(app.handlers);
  if (name !== null) {
    await requests('profiles.apply', { name, conversationId: conversation.id, keepSettings: true });
    return requests('conversation.get', { conversationId: conversation.id });
  }
  if (conversation.profile) {
    try {
      settings.useProfile(profilePatch(readProfile(dataDir, conversation.profile)));
    } catch {
      // A profile that can no longer be read stops the turn, which names the problem.
    }
  }
  return conversation;
}
