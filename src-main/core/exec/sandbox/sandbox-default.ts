import type { SandboxSettings, Settings, SettingsPatch } from '@contract';
import type { SettingsStore } from '../../settings/settings-store';
import { sandboxSupport, type SandboxSupport } from './sandbox-support';

// The sandbox is on by default wherever it works (bubblewrap on Linux, Seatbelt on macOS): until the
// person chooses (settings.sandbox.chosen), every reader of the settings sees `enabled` as this
// machine's default. Applied once, where the app builds its core, so the engine, the checkpoints, the
// model's picture of the machine, the status line and every entry point (desktop, browser, `oi`,
// `oi mcp`) agree.
//
// Until the check has answered (it really starts bubblewrap once, ~20 ms), the default reads as on;
// the session router waits for the answer before anything runs, and runs unsandboxed then only if the
// sandbox was not the person's choice (session-router.ts).

/** `enabled` as it holds: the person's choice, else whether this machine can sandbox (on while unknown). */
export function effectiveSandbox(sandbox: SandboxSettings, support: SandboxSupport | null): SandboxSettings {
  if (sandbox.chosen) return sandbox;
  return { ...sandbox, enabled: support ? support.available : true };
}

export function withSandboxDefault(store: SettingsStore, detect: () => Promise<SandboxSupport> = sandboxSupport): SettingsStore {
  let known: SandboxSupport | null = null;
  void detect().then(
    (support) => (known = support),
    () => undefined,
  );
  const view = (settings: Settings): Settings => ({ ...settings, sandbox: effectiveSandbox(settings.sandbox, known) });
  return {
    get: () => view(store.get()),
    update(patch: SettingsPatch) {
      // Setting `enabled` is the person's choice from then on.
      const chosen = patch.sandbox?.enabled !== undefined ? { ...patch, sandbox: { ...patch.sandbox, chosen: true } } : patch;
      return view(store.update(chosen));
    },
    get notice() {
      return store.notice;
    },
  };
}
