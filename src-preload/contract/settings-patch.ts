import type { Settings, SettingsPatch } from './settings';

// Without zod (types only), so the renderer's first chunk can apply a patch as '@contract/settings-patch'.

/** Applies a validated patch; nested objects are merged one level deep. */
export function applySettingsPatch(current: Settings, patch: SettingsPatch): Settings {
  return {
    ...current,
    ...patch,
    exec: { ...current.exec, ...patch.exec },
    sandbox: { ...current.sandbox, ...patch.sandbox },
  };
}
