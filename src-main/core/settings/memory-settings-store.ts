import { applySettingsPatch, defaultSettings, type Settings, type SettingsPatch } from '@contract';
import type { SettingsStore } from './settings-store';

/** Settings kept for this run only (tests, and `oi` when asked not to persist). */
export class MemorySettingsStore implements SettingsStore {
  readonly notice = null;
  private current: Settings;

  constructor(initial: SettingsPatch = {}) {
    this.current = applySettingsPatch(structuredClone(defaultSettings), initial);
  }

  get(): Settings {
    return this.current;
  }

  update(patch: SettingsPatch): Settings {
    this.current = applySettingsPatch(this.current, patch);
    return this.current;
  }
}
