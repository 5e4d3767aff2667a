import type { RunLimits } from '@contract';
import type { SessionRoute } from '../session-router';
import { normalizeServerUrl, safeUrl } from './jupyter-connection';
import { RemoteKernelSession } from './remote-kernel-session';

// Which conversations run which language on a remote kernel, and which kernel each one last used,
// so that a session that lost its connection reattaches to the same kernel (and its variables)
// instead of starting over. The token is not kept here: it is read from the keychain for each
// connection, through tokenFor.

export interface KernelBinding {
  /** Normalized server URL (see normalizeServerUrl). */
  url: string;
  kernelName: string;
  /** As the server names it, for the cell's "ran on" line: 'Python 3 (ipykernel)'. */
  displayName: string;
  /** The engine's language that runs there ('python'); other languages stay local. */
  language: string;
}

export interface RemoteKernelsOptions {
  tokenFor(url: string): Promise<string | null>;
  startTimeoutMs?: number;
  lostAfterMs?: number;
}

export class RemoteKernels {
  private readonly bindings = new Map<string, KernelBinding>();
  private readonly kernelIds = new Map<string, string>();

  constructor(private readonly options: RemoteKernelsOptions) {}

  bind(conversationId: string, binding: KernelBinding): void {
    this.bindings.set(conversationId, { ...binding, url: normalizeServerUrl(binding.url) });
  }

  /** The conversation's language runs locally again from its next run on (its remote kernel is shut down then). */
  unbind(conversationId: string): void {
    this.bindings.delete(conversationId);
  }

  binding(conversationId: string): KernelBinding | null {
    return this.bindings.get(conversationId) ?? null;
  }

  bindingFor(conversationId: string, language: string): KernelBinding | null {
    const binding = this.bindings.get(conversationId);
    return binding && binding.language === language ? binding : null;
  }

  /** The kernel a conversation's session is on now (or last was, when its connection was lost). */
  kernelIdFor(conversationId: string): string | null {
    const binding = this.bindings.get(conversationId);
    return binding ? (this.kernelIds.get(kernelKey(conversationId, binding)) ?? null) : null;
  }

  route(conversationId: string, binding: KernelBinding): SessionRoute {
    const key = kernelKey(conversationId, binding);
    const location = `remote Jupyter kernel "${binding.displayName}" at ${safeUrl(binding.url)}`;
    return {
      key: `remote:${binding.url}#${binding.kernelName}`,
      label: `on the ${location}`,
      refusal: null,
      // Nothing needs to be installed locally to run on the server.
      runtime: { command: binding.url, version: null },
      // Local limits cannot reach a process on another machine; only the timeout (interrupt, then
      // shut the kernel down) still applies. The server's own limits and isolation hold there.
      limits: (base: RunLimits): RunLimits => ({ ...base, memoryMb: null, cpuSeconds: null, maxProcesses: null, sandbox: null, location }),
      start: async (options) =>
        RemoteKernelSession.start({
          target: { url: binding.url, token: await this.options.tokenFor(binding.url) },
          kernelName: binding.kernelName,
          label: options.language.name,
          kernelId: this.kernelIds.get(key) ?? null,
          onKernel: (id) => {
            if (id) this.kernelIds.set(key, id);
            else this.kernelIds.delete(key);
          },
          startTimeoutMs: this.options.startTimeoutMs,
          lostAfterMs: this.options.lostAfterMs,
        }),
    };
  }
}

function kernelKey(conversationId: string, binding: KernelBinding): string {
  return `${conversationId}\u0000${binding.url}\u0000${binding.kernelName}`;
}
