import type { SandboxSettings } from '@contract';
import type { ExecService } from '../engine/types';

// The sandbox setting is applied where the app builds its engine, to every run, whoever asks: agent
// cells, notebook re-runs, the CLI, automatic installs. A caller that forgets to pass it (as notebook
// re-runs once did) or passes something else cannot run code outside a sandbox the user turned on.

export function withSandboxSetting(exec: ExecService, setting: () => SandboxSettings): ExecService {
  return {
    run: (request) => exec.run({ ...request, sandbox: setting() }),
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
