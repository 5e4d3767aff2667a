import { applySettingsPatch, type Settings, type SettingsPatch } from '@contract';
import type { SettingsStore } from '../core/settings/settings-store';

/**
 * The saved settings with this run's flags on top (--model, --auto-run…). Flags never reach the file:
 * `oi --provider ollama` once must not change what the desktop app uses next time.
 */
export class OverlaySettingsStore implements SettingsStore {
  constructor(
    private readonly base: SettingsStore,
    private overrides: SettingsPatch,
  ) {}

  get notice(): string | null {
    return this.base.notice;
  }

  get(): Settings {
    return applySettingsPatch(this.base.get(), this.overrides);
  }

  update(patch: SettingsPatch): Settings {
    this.base.update(patch);
    return this.get();
  }

  /** Changes this run's overrides (the model picked when only --provider was given). */
  override(patch: SettingsPatch): void {
    this.overrides = { ...this.overrides, ...patch };
  }
}
