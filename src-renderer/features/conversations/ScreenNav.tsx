import { useApp, type Screen } from '../../state/app-store';
import { Icon, type IconName } from '../common/Icon';

const ENTRIES: Array<[Screen, string, IconName]> = [
  ['chat', 'Chat', 'chat'],
  ['settings', 'Settings', 'gear'],
  ['keys', 'API keys', 'key'],
  ['schedules', 'Schedules', 'clock'],
];

/** The app's screens, at the foot of the sidebar. */
export function ScreenNav() {
  const screen = useApp((s) => s.screen);
  const setScreen = useApp((s) => s.setScreen);
  return (
    <nav className="screen-nav" aria-label="Screens">
      {ENTRIES.map(([id, label, icon]) => (
        <button
          key={id}
          className={screen === id ? 'nav-button active' : 'nav-button'}
          aria-current={screen === id ? 'page' : undefined}
          onClick={() => setScreen(id)}
        >
          <Icon name={icon} /> {label}
        </button>
      ))}
    </nav>
  );
}
