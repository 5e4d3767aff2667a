import { errorMessage, type RemoteKernelBinding, type RunLimits } from '@contract';
import type { SessionRoute } from '../session/session-types';
import { normalizeServerUrl, safeUrl } from './jupyter-urls';

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

/**
 * Where bindings outlive the process: the conversation's file (see agent/kernel-binding-memory.ts).
 * `save` answers false when there is nothing to save into (no such conversation).
 */
export interface KernelBindingMemory {
  load(conversationId: string): Promise<RemoteKernelBinding | null>;
  save(conversationId: string, binding: RemoteKernelBinding | null): Promise<boolean>;
}

export interface RemoteKernelsOptions {
  tokenFor(url: string): Promise<string | null>;
  /** Where bindings are saved and read back; without it they last as long as the process. */
  memory?: KernelBindingMemory;
  startTimeoutMs?: number;
  lostAfterMs?: number;
  /** Between the steps of stopping a remote run (RemoteKernelSessionOptions.stopGraceMs). */
  stopGraceMs?: number;
}

export class RemoteKernels {
  private readonly bindings = new Map<string, KernelBinding>();
  private readonly kernelIds = new Map<string, string>();
  private readonly memory: KernelBindingMemory | null;
  /** Per conversation: its saved binding has been read (or replaced by bind/unbind since). */
  private readonly restored = new Map<string, Promise<void>>();
  /** Per conversation: the last save, so saves stay in order and can be awaited. */
  private readonly saving = new Map<string, Promise<void>>();
  /** Conversations whose binding is on disk: their kernels are left running when the app quits. */
  private readonly remembered = new Set<string>();
  private leaving = false;

  constructor(private readonly options: RemoteKernelsOptions) {
    this.memory = options.memory ?? null;
  }

  bind(conversationId: string, binding: KernelBinding): void {
    this.restored.set(conversationId, Promise.resolve());
    this.bindings.set(conversationId, { ...binding, url: normalizeServerUrl(binding.url) });
    this.persist(conversationId);
  }

  /** The conversation's language runs locally again from its next run on (its remote kernel is shut down then). */
  unbind(conversationId: string): void {
    this.restored.set(conversationId, Promise.resolve());
    this.bindings.delete(conversationId);
    this.persist(conversationId);
  }

  /**
   * Takes up a conversation's saved binding after a restart, once, on its first use: the kernel id
   * comes with it, so the next session reattaches to the kernel (and its variables) if the server
   * still has it.
   */
  restore(conversationId: string): Promise<void> {
    const memory = this.memory;
    if (!memory) return Promise.resolve();
    const known = this.restored.get(conversationId);
    if (known) return known;
    const reading: Promise<void> = memory.load(conversationId).then(
      (saved) => {
        // A bind or unbind while the file was read is newer than the file.
        if (!saved || this.restored.get(conversationId) !== reading) return;
        const binding: KernelBinding = {
          url: normalizeServerUrl(saved.url),
          kernelName: saved.kernelName,
          displayName: saved.displayName ?? saved.kernelName,
          language: saved.language,
        };
        this.bindings.set(conversationId, binding);
        this.remembered.add(conversationId);
        if (saved.kernelId) this.kernelIds.set(kernelKey(conversationId, binding), saved.kernelId);
      },
      // An unreadable or missing conversation simply has no binding.
      () => undefined,
    );
    this.restored.set(conversationId, reading);
    return reading;
  }

  /** Resolves once the conversation's binding changes so far are on disk. */
  saved(conversationId: string): Promise<void> {
    return this.saving.get(conversationId) ?? Promise.resolve();
  }

  /**
   * The app is quitting: sessions closed from now on leave their kernels running on the server when
   * the binding is saved, so the conversation finds its state again after a restart.
   */
  async leave(): Promise<void> {
    this.leaving = true;
    await Promise.all(this.saving.values());
  }

  private persist(conversationId: string): void {
    const memory = this.memory;
    if (!memory) return;
    const binding = this.bindings.get(conversationId);
    const saved: RemoteKernelBinding | null = binding
      ? { ...binding, kernelId: this.kernelIds.get(kernelKey(conversationId, binding)) ?? null }
      : null;
    const next = (this.saving.get(conversationId) ?? Promise.resolve())
      .then(() => memory.save(conversationId, saved))
      .then(
        (stored) => {
          if (stored && saved) this.remembered.add(conversationId);
          else this.remembered.delete(conversationId);
        },
        (err: unknown) => {
          // The binding still holds for this run of the app; only the restart would forget it.
          this.remembered.delete(conversationId);
          console.warn(`could not save the remote kernel of conversation ${conversationId}: ${errorMessage(err)}`);
        },
      );
    this.saving.set(conversationId, next);
  }

  binding(conversationId: string): KernelBinding | null {
    return this.bindings.get(conversationId) ?? null;
  }

  async bindingFor(conversationId: string, language: string): Promise<KernelBinding | null> {
    await this.restore(conversationId);
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
      // The Jupyter client is loaded with the first remote run, not at start-up.
      start: async (options) =>
        (await import('./remote-kernel-session')).RemoteKernelSession.start({
          target: { url: binding.url, token: await this.options.tokenFor(binding.url) },
          kernelName: binding.kernelName,
          label: options.language.name,
          kernelId: this.kernelIds.get(key) ?? null,
          onKernel: (id) => {
            if (id) this.kernelIds.set(key, id);
            else this.kernelIds.delete(key);
            // Only a new kernel is worth saving: forgetting one happens while sessions close (a
            // conversation being deleted among them), and a stale id just starts a fresh kernel later.
            if (id && this.bindings.get(conversationId) === binding) this.persist(conversationId);
          },
          keepKernel: () => this.leaving && this.remembered.has(conversationId),
          startTimeoutMs: this.options.startTimeoutMs,
          lostAfterMs: this.options.lostAfterMs,
          stopGraceMs: this.options.stopGraceMs,
        }),
    };
  }
}

function kernelKey(conversationId: string, binding: KernelBinding): string {
  return `${conversationId}\u0000${binding.url}\u0000${binding.kernelName}`;
}
