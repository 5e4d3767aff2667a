import type { ModelCapability, ModelDescription, ModelTarget, Settings } from '@contract';
import type { EventBus } from '../bridge/event-bus';
import { ModelCapabilities } from '../llm/model-capabilities';
import { modelLimits } from '../llm/model-catalog';
import type { Provider } from '../llm/provider';
import type { ProviderTarget } from '../llm/provider-factory';
import { ServerContext } from '../llm/server-context';
import { probeCapability } from './capability-probe';

export interface ModelKnowledgeOptions {
  /** The app's data folder (capabilities are kept there); null keeps them for this process only. */
  dataDir: string | null;
  providerFor: (target: ProviderTarget) => Promise<Provider>;
  events?: EventBus;
}

/** Local model servers are probed; hosted APIs call tools natively and are never asked. */
export const isLocal = (provider: Settings['provider']): boolean => provider === 'ollama' || provider === 'openai-compatible';

/**
 * What the app knows about the model it talks to: how it calls tools (capability-probe.ts, stored in
 * model-capabilities.json) and the context window its server really runs (llm/server-context.ts).
 * The agent asks before each model call; the model picker shows the same answers.
 */
export class ModelKnowledge {
  private readonly capabilities: ModelCapabilities;
  private readonly serverContext = new ServerContext();
  private readonly probing = new Map<string, Promise<ModelCapability>>();

  constructor(private readonly opts: ModelKnowledgeOptions) {
    this.capabilities = new ModelCapabilities(opts.dataDir);
  }

  capabilityOf(target: ModelTarget): Promise<ModelCapability | null> {
    if (!isLocal(target.provider)) return Promise.resolve(null);
    return this.capabilities.get(target);
  }

  /** Probes the model now (one at a time per model) and remembers the answer. */
  probe(settings: Settings, target: ModelTarget = targetOf(settings)): Promise<ModelCapability> {
    const key = JSON.stringify(target);
    let running = this.probing.get(key);
    if (!running) {
      running = (async () => {
        const provider = await this.opts.providerFor({ ...settings, ...target });
        const capability = await probeCapability(provider, target.model);
        await this.capabilities.set(target, capability);
        this.opts.events?.emit('model.capability', { ...target, capability });
        return capability;
      })().finally(() => this.probing.delete(key));
      this.probing.set(key, running);
    }
    return running;
  }

  /**
   * The window history is fitted to: the user's setting; else what the server runs the model with
   * (for Ollama, the model's own length capped by ollamaMaxContext, since the app sets num_ctx); else
   * the model catalog's figure.
   */
  async contextWindow(settings: Settings): Promise<{ window: number; serverLength: number | null }> {
    const serverLength = await this.serverContext.lengthFor(settings);
    if (settings.contextWindow !== null) return { window: settings.contextWindow, serverLength };
    if (serverLength !== null) {
      const window = settings.provider === 'ollama' ? Math.min(serverLength, settings.ollamaMaxContext) : serverLength;
      return { window, serverLength };
    }
    const catalog = modelLimits(settings).contextWindow;
    return { window: settings.provider === 'ollama' ? Math.min(catalog, settings.ollamaMaxContext) : catalog, serverLength };
  }

  async describe(settings: Settings, target: ModelTarget = targetOf(settings)): Promise<ModelDescription> {
    const merged = { ...settings, ...target };
    const [capability, context] = await Promise.all([this.capabilityOf(target), this.contextWindow(merged)]);
    return { capability, serverContextLength: context.serverLength, contextWindow: context.window };
  }

  /** A model was pulled or a server restarted: ask the servers again. */
  forgetServers(): void {
    this.serverContext.forget();
  }
}

export function targetOf(settings: Pick<Settings, 'provider' | 'baseUrl' | 'model'>): ModelTarget {
  return { provider: settings.provider, baseUrl: settings.baseUrl, model: settings.model };
}
