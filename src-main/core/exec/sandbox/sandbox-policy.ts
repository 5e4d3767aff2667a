import type { SandboxSettings } from '@contract';
import type { ExecService, RunRequest, RunSandbox } from '../engine/types';

// The sandbox setting is applied where the app builds its engine, to every run, whoever asks: agent
// cells, notebook re-runs, the CLI, automatic installs. A caller that forgets to pass it (as notebook
// re-runs once did) or passes something else cannot run code outside a sandbox the user turned on.

export function withSandboxSetting(
  exec: ExecService,
  setting: () => SandboxSettings,
  /** What a run of this conversation gets instead (plan mode: the workspace read-only); absent: the setting. */
  forRun?: (request: RunRequest, sandbox: SandboxSettings) => RunSandbox,
): ExecService {
  return {
    run: (request) => exec.run({ ...request, sandbox: forRun ? forRun(request, setting()) : setting() }),
    // The same sandbox as the run, so the session prepared is the one the run uses.
    prepare: (request) => exec.prepare?.({ ...request, sandbox: forRun ? forRun(request, setting()) : setting() }) ?? Promise.resolve(),
    interrupt: (conversationId, language) => exec.interrupt(conversationId, language),
    typeInto: (conversationId, runId, data) => exec.typeInto(conversationId, runId, data),
    restart: (conversationId, language) => exec.restart(conversationId, language),
    languages: (scope) => exec.languages(scope ? { ...scope, sandbox: setting() } : scope),
    python: (scope) => exec.python({ ...scope, sandbox: setting() }),
    closeConversation: (conversationId) => exec.closeConversation(conversationId),
    endIdle: (idleMs, keep, now) => exec.endIdle(idleMs, keep, now),
    dispose: () => exec.dispose(),
  };
}

/**
 * The sandbox settings with `folder` shown read-only inside the sandbox (the person's skills folder,
 * whose scripts cells run): added as a read-only extra path, so the plan, the macOS profile and the
 * description of what holds all name it. Read-only: sandboxed code must not change what the app
 * later gives the model as a skill.
 */
export function withReadableFolder(settings: SandboxSettings, folder: string): SandboxSettings {
  const entry = `${folder}:ro`;
  return settings.extraPaths.includes(entry) ? settings : { ...settings, extraPaths: [...settings.extraPaths, entry] };
}

/**
 * The sandbox settings with `folder` sealed: never writable inside the sandbox, even when the
 * workspace or a read-write extra path contains it (a conversation started in the home, with the
 * data folder under ~/.config). The app's data folder: its hooks.json runs commands outside the
 * sandbox, and its settings, schedules, conversations and skills are read and followed by the app.
 */
export function withSealedFolder(settings: SandboxSettings, folder: string): SandboxSettings {
  const entry = `${folder}:sealed`;
  return settings.extraPaths.includes(entry) ? settings : { ...settings, extraPaths: [...settings.extraPaths, entry] };
}
