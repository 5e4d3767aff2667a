import path from 'node:path';
import { LiveReruns } from './notebook/live-reruns';
import { AgentService } from './agent/agent-service';
import { EnvironmentContext, machineSources } from './agent/environment-context';
import { fileEnvironmentSnapshot } from './agent/environment-snapshot';
import { EventBus } from './bridge/event-bus';
import type { HandlerTable } from './bridge/handler-table';
import { ConversationStore } from './conversations/conversation-store';
import type { ExecService } from './exec';
import type { AppContext } from './handlers/app-context';
import { appHandlers } from './handlers/app-handlers';
import { chatHandlers } from './handlers/chat-handlers';
import { conversationHandlers } from './handlers/conversation-handlers';
import { settingsHandlers } from './handlers/settings-handlers';
import { keysHandlers } from './handlers/keys-handlers';
import { providerHandlers } from './handlers/provider-handlers';
import { modelHandlers } from './handlers/model-handlers';
import { ModelKnowledge } from './agent/model-knowledge';
import { CheckpointService } from './checkpoints/checkpoint-service';
import { McpManager } from './mcp/mcp-manager';
import { checkpointHandlers } from './handlers/checkpoint-handlers';
import { workspaceHandlers } from './handlers/workspace-handlers';
import { notebookHandlers } from './handlers/notebook-handlers';
import { kernelHandlers } from './handlers/kernel-handlers';
import { sandboxHandlers } from './handlers/sandbox-handlers';
import { kernelAccount } from './exec';
import { RemoteKernels } from './exec';
import { conversationKernelMemory } from './agent/kernel-binding-memory';
import type { KeyVault } from './providers/key-vault';
import { DEFAULT_LOCAL_SERVERS, type LocalServerSpec } from './providers/local-servers';
import { WorkspaceWatchers } from './workspace/workspace-watcher';
import { createProviderFactory, type KeySource } from './llm/provider-factory';
import type { SettingsStore } from './settings/settings-store';

export interface AppOptions {
  dataDir: string;
  settings: SettingsStore;
  /** Where provider keys come from (keychain, then environment). Never exposed to a handler's output. */
  keys: KeySource;
  exec: ExecService;
  version: string;
  secretStorage: 'keychain' | 'memory';
  /** Start-up notices shown to the user (settings reset, no keychain…). */
  notices?: string[];
  /** The keys screen's access to the keychain (write and describe only). */
  keyVault: KeyVault;
  /** Remote Jupyter kernels; bootstrap shares one instance with the exec engine's router. */
  kernels?: RemoteKernels;
  /** Local model servers first run looks for; default: Ollama, LM Studio and Jan on their usual ports. */
  localServers?: LocalServerSpec[];
}

export interface App {
  handlers: HandlerTable;
  events: EventBus;
  context: AppContext;
  dispose(): Promise<void>;
}

/** The composition root: builds the services and the one handler table both transports serve. */
export function createApp(opts: AppOptions): App {
  const events = new EventBus();
  const conversations = new ConversationStore(opts.dataDir, () => opts.settings.get().workspaceRoot);
  const providerFor = createProviderFactory(opts.keys);
  const models = new ModelKnowledge({ dataDir: opts.dataDir, providerFor, events });
  const checkpoints = new CheckpointService({ dataDir: opts.dataDir, settings: () => opts.settings.get() });
  // MCP servers start when a turn first needs their tools and stop with the app.
  const mcp = new McpManager(() => opts.settings.get().mcpServers);
  const agent = new AgentService({
    conversations,
    exec: opts.exec,
    environment: new EnvironmentContext(machineSources(opts.exec), fileEnvironmentSnapshot(path.join(opts.dataDir, 'environment-cache.json'))),
    events,
    settings: () => opts.settings.get(),
    providerFor,
    models,
    checkpoints,
    mcp,
  });
  const kernels = opts.kernels ?? new RemoteKernels({ tokenFor: (url) => opts.keyVault.store.get(kernelAccount(url)) });
  kernels.useMemory(conversationKernelMemory(agent));
  const context: AppContext = {
    dataDir: opts.dataDir,
    version: opts.version,
    events,
    conversations,
    agent,
    exec: opts.exec,
    settings: opts.settings,
    keys: opts.keys,
    secretStorage: opts.secretStorage,
    notices: opts.notices ?? [],
    keyVault: opts.keyVault,
    localServers: opts.localServers ?? DEFAULT_LOCAL_SERVERS,
    workspaceWatchers: new WorkspaceWatchers((conversationId, paths) => events.emit('workspace.changed', { conversationId, paths })),
    models,
    checkpoints,
    reruns: new LiveReruns({ agent, conversations, exec: opts.exec, events, settings: () => opts.settings.get() }),
  };

  // One file per feature; the HandlerTable type makes a missing or extra request a compile error.
  const handlers: HandlerTable = {
    ...appHandlers(context),
    ...conversationHandlers(context),
    ...chatHandlers(context),
    ...settingsHandlers(context),
    ...workspaceHandlers(context),
    ...keysHandlers(context),
    ...providerHandlers(context),
    ...modelHandlers(context),
    ...checkpointHandlers(context),
    ...notebookHandlers(context),
    ...kernelHandlers(context, kernels),
    ...sandboxHandlers(context),
  };

  return {
    handlers,
    events,
    context,
    async dispose() {
      context.workspaceWatchers.dispose();
      await agent.dispose();
      await mcp.dispose();
      // Before the sessions close: kernels of saved bindings stay on their servers for the next start.
      await kernels.leave();
      await opts.exec.dispose();
    },
  };
}
