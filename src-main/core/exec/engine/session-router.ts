import type { RunLimits } from '@contract';
import type { LanguageDefinition } from '../languages/language';
import type { RemoteKernels } from '../remote/remote-kernels';
import { describeSandbox } from '../sandbox/describe-sandbox';
import { sandboxProbing } from '../sandbox/sandbox-probing';
import type { NetworkPolicy } from '../sandbox/network-proxy';
import { startSandboxedSession } from '../sandbox/sandboxed-session';
import { sandboxSupport, type SandboxSupport } from '../sandbox/sandbox-support';
import type { SessionRoute } from '../session/session-types';
import { chooseShell, type ShellChoice, type ShellContext } from '../shell/shell-choice';
import { startSession } from '../session/start-session';
import type { RunRequest } from './types';

// Where a conversation's session runs: on a remote Jupyter kernel the user connected, inside the
// sandbox, or as a plain local process. The engine asks before each run; a live session started
// under another route (the sandbox was switched on, a kernel connected) is replaced.

export interface SessionRouter {
  /**
   * The language a cell really runs in: for shell cells, which shell (shell-choice.ts). A cell
   * whose language the conversation bound to a remote kernel keeps it, so it goes there. The engine
   * asks only for shell cells; any other language is what it was named.
   */
  choose(request: RunRequest, language: LanguageDefinition, context: ShellContext): Promise<ShellChoice>;
  route(request: RunRequest, language: LanguageDefinition): Promise<SessionRoute>;
}

export interface SessionRouterOptions {
  remote?: RemoteKernels;
  /** For tests: the sandbox support to assume (default: detected once). */
  sandboxSupport?: () => Promise<SandboxSupport>;
  /**
   * Where a sandboxed conversation's network requests are decided (agent/network-questions.ts). Without
   * it, a sandbox with the network off has no way out at all.
   */
  network?: (conversationId: string) => NetworkPolicy;
}

export function createSessionRouter(options: SessionRouterOptions = {}): SessionRouter {
  const support = options.sandboxSupport ?? sandboxSupport;
  return {
    async choose(request, language, context) {
      if (language.kind !== 'shell') return { language, note: null };
      if (await options.remote?.bindingFor(request.conversationId, language.name)) return { language, note: null };
      return chooseShell(request.language, language, request.settings.shell, context);
    },

    async route(request, language) {
      const remote = await options.remote?.bindingFor(request.conversationId, language.name);
      if (remote && options.remote) return options.remote.route(request.conversationId, remote);
      const sandbox = request.sandbox;
      // HTML is not executed, so there is nothing to sandbox.
      if (!sandbox?.enabled || language.kind === 'html') return LOCAL;
      const found = await support();
      // The sandbox by default (not the person's choice) where it cannot work: run as before it was
      // the default; the status line says why and how to enable it (sandbox.status).
      if (!found.available && !sandbox.chosen) return LOCAL;
      const description = describeSandbox(sandbox, found);
      const limits = (base: RunLimits): RunLimits => ({ ...base, sandbox: description });
      if (!found.available) {
        return {
          key: 'sandbox-unavailable',
          label: 'in the sandbox',
          refusal: `The sandbox is on, but ${found.reason}. Nothing was run; turn the sandbox off to run without it.`,
          runtime: null,
          limits,
          start: startSession,
        };
      }
      return {
        key: `sandbox:${JSON.stringify([sandbox.allowNetwork, sandbox.extraPaths, sandbox.workspaceReadOnly === true])}`,
        label: 'in the sandbox',
        refusal: null,
        runtime: null,
        limits,
        start: (start) => startSandboxedSession(startSession, start, sandbox, found, options.network?.(request.conversationId)),
        probing: (context) => sandboxProbing({ support: found, settings: sandbox, ...context }),
      };
    },
  };
}

const LOCAL: SessionRoute = {
  key: 'local',
  label: 'locally, without the sandbox',
  refusal: null,
  runtime: null,
  limits: (base) => base,
  start: startSession,
};
