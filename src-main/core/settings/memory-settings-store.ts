import { applySettingsPatch, defaultSettings, type Settings, type SettingsPatch } from '@contract';
import { patchProblem } from './settings-rules';
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
    const next = applySettingsPatch(this.current, patch);
    // The same cross-field rules as the settings file, so tests see what the app does.
    const problem = patchProblem(next, patch);
    if (problem) throw new Error(`Settings not saved: ${problem}`);
    this.current = next;
    return this.current;
  }
}
