import { applySettingsPatch, type Settings, type SettingsPatch } from '@contract';
import type { SettingsStore } from '../core/settings/settings-store';

/**
 * The saved settings with this run's flags on top (--model, --auto-run…), and under the flags the
 * profile of the run (--profile, or the one the continued conversation is bound to). Flags never reach
 * the file: `oi --provider ollama` once must not change what the desktop app uses next time.
 */
export class OverlaySettingsStore implements SettingsStore {
  constructor(
    private readonly base: SettingsStore,
    private overrides: SettingsPatch,
    private profile: SettingsPatch = {},
  ) {}

  get notice(): string | null {
    return this.base.notice;
  }

  get(): Settings {
    return applySettingsPatch(applySettingsPatch(this.base.get(), this.profile), this.overrides);
  }

  update(patch: SettingsPatch): Settings {
    this.base.update(patch);
    return this.get();
  }

  /** The profile under the flags: the one the continued conversation is bound to. */
  useProfile(patch: SettingsPatch): void {
    this.profile = patch;
  }

  /** Changes this run's overrides (the model picked when only --provider was given). */
  override(patch: SettingsPatch): void {
    this.overrides = { ...this.overrides, ...patch };
  }
}
