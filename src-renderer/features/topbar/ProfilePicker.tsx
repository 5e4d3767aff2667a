import { useEffect, useState } from 'react';
import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';
import { PROFILES_CHANGED } from '../common/profiles-changed';

// Uses a profile of Settings → Profiles for the open conversation (docs/agent.md#profiles): its model
// becomes the conversation's, its instructions, auto-run and sandbox go into Settings. Shown once a
// profile exists. The list is read again when the menu is opened: Settings → Profiles or `oi` may
// have changed it.

const NONE = '';

export function ProfilePicker() {
  const screen = useApp((s) => s.screen);
  const ensureConversation = useApp((s) => s.ensureConversation);
  const reportError = useApp((s) => s.reportError);
  const [names, setNames] = useState<string[]>([]);
  const [used, setUsed] = useState(NONE);
  const refresh = () =>
    void bridge['profiles.list']({}).then((list) => setNames(list.filter((p) => p.profile !== null).map((p) => p.name)), reportError);
  // Again on leaving Settings, where profiles are made.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- reportError is the store's, never changes
  useEffect(refresh, [screen]);
  useEffect(() => {
    window.addEventListener(PROFILES_CHANGED, refresh);
    return () => window.removeEventListener(PROFILES_CHANGED, refresh);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- as above
  }, []);
  if (names.length === 0) return null;
  const choose = async (name: string) => {
    const conversationId = await ensureConversation();
    await bridge['profiles.apply']({ name, conversationId });
    setUsed(name);
    const [settings, conv] = await Promise.all([bridge['settings.get']({}), bridge['conversation.get']({ conversationId })]);
    const now = useApp.getState().current;
    useApp.setState({ settings });
    if (now?.conv.id === conv.id) useApp.setState({ current: { ...now, conv: { ...now.conv, modelChoice: conv.modelChoice } } });
  };
  return (
    <label className="profile-picker" title="Use a profile of Settings → Profiles: its model, instructions, auto-run and sandbox">
      <select
        aria-label="Profile"
        value={used}
        onFocus={refresh}
        onChange={(e) => e.target.value !== NONE && void choose(e.target.value).catch(reportError)}
      >
        <option value={NONE}>Profile…</option>
        {names.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}
