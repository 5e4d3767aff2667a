import type { Settings, SettingsPatch } from '@contract';

/** The settings port: the settings file (node-settings-store.ts) in the desktop app and under plain Node, memory in tests. */
export interface SettingsStore {
  get(): Settings;
  /** Applies a patch that has already passed the contract's schema; returns the new settings. */
  update(patch: SettingsPatch): Settings;
  /** Set when the stored file was unreadable and was backed up and reset (shown to the user once). */
  readonly notice: string | null;
}
