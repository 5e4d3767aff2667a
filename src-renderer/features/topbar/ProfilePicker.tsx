import { useEffect, useState } from 'react';
import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';
import { PROFILES_CHANGED } from '../common/profiles-changed';
import type { Profile, ProfileEntry } from '@contract';
import { ProfileHooksDialog, type ProfileHooksQuestion } from './ProfileHooksDialog';

// Binds the open conversation to a profile of Settings → Profiles (docs/agent.md#profiles): its model
// becomes the conversation's, and its instructions, auto-run, sandbox, hooks and skills apply to that
// conversation at each turn; the menu shows the bound profile, and "No profile" takes it off. A profile
// with hooks runs their commands as the person, outside the sandbox: the person confirms it first, in
// the app's dialog naming them (ProfileHooksDialog); declined, nothing is bound. Shown once a profile exists. The list is read again when the menu is opened: Settings → Profiles or `oi` may
// have changed it.

const NONE = '';

export function ProfilePicker() {
  const screen = useApp((s) => s.screen);
  const ensureConversation = useApp((s) => s.ensureConversation);
  const reportError = useApp((s) => s.reportError);
  const [entries, setEntries] = useState<ProfileEntry[]>([]);
  const [asking, setAsking] = useState<ProfileHooksQuestion | null>(null);
  const names = entries.filter((p) => p.profile !== null).map((p) => p.name);
  const used = useApp((s) => s.current?.conv.profile) ?? NONE;
  const refresh = () => void bridge['profiles.list']({}).then(setEntries, reportError);
  // Again on leaving Settings, where profiles are made.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- reportError is the store's, never changes
  useEffect(refresh, [screen]);
  useEffect(() => {
    window.addEventListener(PROFILES_CHANGED, refresh);
    return () => window.removeEventListener(PROFILES_CHANGED, refresh);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- as above
  }, []);
  if (names.length === 0) return null;
  const apply = async (name: string) => {
    const conversationId = await ensureConversation();
    await bridge['profiles.apply']({ name: name === NONE ? null : name, conversationId });
    const [settings, conv] = await Promise.all([bridge['settings.get']({}), bridge['conversation.get']({ conversationId })]);
    const now = useApp.getState().current;
    useApp.setState({ settings });
    if (now?.conv.id === conv.id)
      useApp.setState({ current: { ...now, conv: { ...now.conv, modelChoice: conv.modelChoice, profile: conv.profile } } });
  };
  const choose = (name: string) => {
    const commands = name === NONE ? [] : hookCommands(entries.find((p) => p.name === name)?.profile ?? null);
    if (commands.length > 0) setAsking({ name, commands });
    else void apply(name).catch(reportError);
  };
  const answer = (yes: boolean) => {
    const question = asking;
    setAsking(null);
    if (yes && question) void apply(question.name).catch(reportError);
  };
  return (
    <>
      <label className="profile-picker" title="Use a profile of Settings → Profiles: its model, instructions, auto-run and sandbox">
        <select aria-label="Profile" value={used} onFocus={refresh} onChange={(e) => choose(e.target.value)}>
          <option value={NONE}>{used === NONE ? 'Profile…' : 'No profile'}</option>
          {names.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      {/* Outside the label: a click in the dialog must not reach the select. */}
      {asking && <ProfileHooksDialog question={asking} onAnswer={answer} />}
    </>
  );
}

/** The commands a profile's hooks run (as the person, outside the sandbox). */
export function hookCommands(profile: Profile | null): string[] {
  return Object.values(profile?.hooks ?? {}).flatMap((specs) => (specs ?? []).map((spec) => spec.command));
}
