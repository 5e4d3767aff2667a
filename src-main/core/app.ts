import { ComputerService } from './agent/computer-cell';
import { readProfile } from './profiles/profile-store';
import type { Profile, SandboxSettings } from '@contract';
import { profileSandbox } from './agent/conversation-profile';
import type { OwnWindows } from './computer/computer-control';
import path from 'node:path';
import { LiveReruns } from './notebook/live-reruns';
import { AgentService } from './agent/agent-service';
import { EnvironmentContext, machineSources } from './agent/environment-context';
import { fileEnvironmentSnapshot } from './agent/environment-snapshot';
import { EventBus } from './bridge/event-bus';
import type { HandlerTable } from './bridge/handler-table';
import { ConversationStore } from './conversations/conversation-store';
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
import { McpConfigService } from './mcp/mcp-config-service';
import { mcpHandlers } from './handlers/mcp-handlers';
import { mcpApprovalHandlers } from './handlers/mcp-approval-handlers';
import { McpApprovalQuestions } from './mcp-approval/approval-questions';
import { openApprovalEndpoint, type ApprovalEndpoint } from './mcp-approval/approval-endpoint';
import { checkpointHandlers } from './handlers/checkpoint-handlers';
import { workspaceHandlers } from './handlers/workspace-handlers';
import { notebookHandlers } from './handlers/notebook-handlers';
import { kernelHandlers } from './handlers/kernel-handlers';
import { networkHandlers, sandboxHandlers } from './handlers/sandbox-handlers';
import { instructionsHandlers } from './handlers/instructions-handlers';
import { profilesHandlers } from './handlers/profiles-handlers';
import { schedulesHandlers } from './handlers/schedules-handlers';
import { currentOiCommand } from './schedules/oi-command';
import type { OiCommand } from './schedules/os-units';
import { ScheduleAdmin } from './schedules/schedule-admin';
import { HookRunner } from './hooks/hook-runner';
import { LazyHostedAgents } from './hosted-agents/lazy-hosted-agents';
import { needsPersonHooks } from './agent/turn-hooks';
import { skillsHandlers } from './handlers/skills-handlers';
import { planHandlers } from './handlers/plan-handlers';
import { planModeSandbox } from './agent/plan/plan-sandbox';
import { commandsHandlers } from './handlers/commands-handlers';
import { memoryHandlers } from './handlers/memory-handlers';
import { userSkillsFolder } from './agent/skills/skill-discovery';
import { createExecService, createSessionRouter, type ExecService, type KnownSecret, Sandbox, Kernels, AutoInstall } from './exec';
import { conversationKernelMemory } from './agent/kernel-binding-memory';
import { DEFAULT_LOCAL_SERVERS, type LocalServerSpec } from './providers/local-servers';
import { WorkspaceWatchers } from './workspace/workspace-watcher';
import { createProviderFactory } from './llm/provider-factory';
import { defaultRetryPolicy } from './llm/retry-with-backoff';
import { ToolSupportMemory } from './llm/tool-support';
import type { SettingsStore } from './settings/settings-store';
import type { AppParts } from './app-parts';

import { InstallQuestions } from './agent/install-questions';
import { NetworkQuestions } from './agent/network-questions';
import { OpenConversations } from './agent/open-conversations';
import { EnvSecretSource } from './secrets/env-secret-source';
import { SecretResolver } from './secrets/secret-resolver';
import type { SecretStore } from './secrets/secret-store';

export interface AppOptions {
  dataDir: string;
  settings: SettingsStore;
  secrets: SecretStore;
  /** Folder holding runners/ and shell/ (resources/ in the repo, process.resourcesPath in the packaged app). */
  resourcesDir: string;
  version: string;
  /** Environment variables that may hold provider keys (read-only source after the keychain). */
  env?: NodeJS.ProcessEnv;
  /** The `oi` scheduled tasks run and the environment the OS scheduler is asked in; default: this installation's, this process's. */
  schedules?: { command: OiCommand; env: NodeJS.ProcessEnv };
  /** Start-up notices shown to the user (settings reset, no keychain…). */
  notices?: string[];
  /** Local model servers first run looks for; default: Ollama, LM Studio and Jan on their usual ports. */
  localServers?: LocalServerSpec[];
  /**
   * Open the endpoint through which `oi mcp` asks the person before a client's code runs, and name it
   * in the data folder (the desktop app and browser mode; not the CLI, nor `oi mcp` itself).
   */
  mcpApprovalEndpoint?: boolean;
  /**
   * The app's own windows, which computer use blacks out of screenshots and never touches: by default
   * this process's (the desktop app's window); oi adds its terminal's (WINDOWID). docs/computer-use.md
   */
  ownWindows?: OwnWindows;
  /** Where computer use finds the screen (DISPLAY, XAUTHORITY, the session bus); default: this process's environment. */
  screenEnv?: NodeJS.ProcessEnv;
  /** This run's flags over any profile a conversation is bound to (`oi -y`, `--no-sandbox`): docs/agent.md#profiles. */
  profileFlags?: Pick<Profile, 'autoRun' | 'sandbox'>;
  /** What ends when the person stops a run (`oi -m`): see ExecServiceOptions.endsWithStop. */
  endsWithStop?: string;
  /** Parts a test replaces (a recorded retry clock, a fixed environment…); never set by an entry point. */
  parts?: AppParts;
}

export interface App {
  handlers: HandlerTable;
  events: EventBus;
  context: AppContext;
  /**
   * Starts in the background what a fresh process's first turn would otherwise wait for, one after
   * the other, on its way: runtime detection (a process per language; each answer is kept for the
   * life of the process) before the first model call, and the checkpoints' change-journal thread
   * before the first cell. Each is a second or more on a busy machine. The page asks for it once it is
   * usable (the `app.ready` request, the same in the desktop app and browser mode), so it never
   * competes with what the person waits on first; oi does not call it: its first request must not
   * compete with them (it answers from the environment snapshot). Later calls do nothing.
   */
  warmUp(): void;
  /** The `oi mcp` approval endpoint once it is open and named (null when the option is off or it failed, with the reason logged). */
  readonly mcpApprovalEndpoint: Promise<ApprovalEndpoint | null>;
  dispose(): Promise<void>;
}

/**
 * The composition root, the same for the desktop shell, browser mode, the CLI and the tests: builds
 * every service from real parts, each after what it depends on, and the one handler table both
 * transports serve. Nothing is wired after construction.
 */
export function createApp(opts: AppOptions): App {
  const events = new EventBus();
  // Every reader sees the sandbox on by default wherever it works, until the person chooses.
  const store = Sandbox.withSandboxDefault(opts.settings);
  const settings = () => store.get();

  // Keys: the keychain, then the environment. The engine strips them from the code's environment and
  // redacts them from what runs give back; it asks synchronously at spawn time, so it reads a snapshot
  // refreshed when keys change.
  const envKeys = new EnvSecretSource(opts.env ?? process.env);
  const keys = new SecretResolver(opts.secrets, envKeys);
  let secrets: KnownSecret[] = [];
  const refreshSecrets = (): void =>
    void keys.allSecrets().then(
      (v) => (secrets = v),
      () => undefined,
    );
  refreshSecrets();
  const keyVault = { store: opts.secrets, resolver: keys, env: envKeys, changed: refreshSecrets };

  // Conversations, and the copies open in memory, which the agent, install questions and remote
  // kernels all read and change.
  const conversations = new ConversationStore(opts.dataDir, () => settings().workspaceRoot);
  const open = new OpenConversations({ conversations, events });

  // The engine: sessions routed to a remote kernel bound to the conversation (tokens in the keychain
  // under kernel:<url>, bindings saved in the conversation's file), the sandbox or a local process.
  const kernels = remoteKernels(opts.secrets, open);
  const sandboxSetting = () => sandboxFor(settings().sandbox, opts.dataDir);
  // The person's hooks (Settings, <data folder>/hooks.json) and a trusted workspace's (docs/agent.md#hooks),
  // for turns, install and network questions, and `oi mcp`. A workspace's hooks run in the sandbox cells
  // get: the data folder sealed there too.
  const hooks = new HookRunner({
    userFile: path.join(opts.dataDir, 'hooks.json'),
    settings,
    sandbox: sandboxSetting,
    secretValues: () => secrets.map((s) => s.value),
  });
  const needsPerson = { hooks, events };
  const network = new NetworkQuestions({
    open,
    settings,
    events,
    onAsking: (live, detail) => needsPersonHooks(live, needsPerson, 'network', detail),
    updateSettings: (patch) => events.emit('settings.changed', { settings: store.update(patch) }),
  });
  const readProfileIn = (name: string): Profile => ({ ...readProfile(opts.dataDir, name), ...opts.profileFlags });
  const engine = createExecService({
    resourcesDir: opts.resourcesDir,
    secrets: () => secrets,
    router: createSessionRouter({ remote: kernels, network: (conversationId) => network.policyFor(conversationId) }),
    endsWithStop: opts.endsWithStop,
  });
  // The sandbox setting reaches every run the app makes (and every install and environment probe),
  // whoever asks for it: it is applied outermost.
  const environment = environmentOf(opts, Sandbox.withSandboxSetting(engine, sandboxSetting));
  // A run that fails on a missing package asks in its conversation (like a cell approval), installs
  // it and runs the cell again.
  const installs = new InstallQuestions({
    open,
    settings,
    events,
    onInstalled: (command) => environment.noteRun(command),
    onAsking: (live, detail) => needsPersonHooks(live, needsPerson, 'install', detail),
  });
  const exec = Sandbox.withSandboxSetting(
    AutoInstall.withAutoInstall(engine, {
      approve: (question) => installs.ask(question),
      onInstall: (record, request) => installs.record(request.conversationId, record),
      secrets: () => secrets,
    }),
    sandboxSetting,
    // Plan mode (docs/agent.md#plan-mode): the conversation's code runs sandboxed with the workspace read-only.
    // A conversation's profile may choose the sandbox for it (docs/agent.md#profiles).
    (request, setting) => {
      const conv = open.get(request.conversationId)?.conv;
      const sandbox = profileSandbox(conv, setting, readProfileIn);
      return conv?.planMode ? planModeSandbox(sandbox) : sandbox;
    },
  );

  // The saved settings decide where a stored key may go, not the target a request names.
  const providerFor = createProviderFactory(keys, settings);
  const models = new ModelKnowledge({ dataDir: opts.dataDir, providerFor, events });
  const checkpoints = new CheckpointService({ dataDir: opts.dataDir, settings });
  // MCP servers start when a turn first needs their tools and stop with the app.
  const mcp = new McpManager(() => settings().mcpServers, {
    secret: (account) => opts.secrets.get(account),
    onChange: (name) => events.emit('mcp.changed', { name }),
  });
  // Questions from `oi mcp` clients: shown on the page, answered by the person.
  const mcpApprovals = new McpApprovalQuestions({ events, settings: store });
  const approvalEndpoint = opts.mcpApprovalEndpoint
    ? openApprovalEndpoint(opts.dataDir, mcpApprovals).catch((err: unknown) => {
        // The app works without it: oi mcp then refuses as when the app is not running.
        console.warn(`The approval endpoint for oi mcp could not open: ${err instanceof Error ? err.message : String(err)}`);
        return null;
      })
    : Promise.resolve(null);
  // The person's own AGENTS.md in the data folder; a workspace's once they trust its folder.
  const instructions = { userFile: path.join(opts.dataDir, 'AGENTS.md'), trusted: () => settings().trustedFolders };
  // The screen, for conversations where the person turns computer use on (docs/computer-use.md).
  const computer =
    opts.parts?.computer ?? new ComputerService(opts.ownWindows ?? { pids: [process.pid], windowIds: [] }, opts.screenEnv ?? process.env);
  // Conversations an outside ACP agent answers (docs/acp.md#hosting): its writes and commands through
  // our engine, sandbox, checkpoints, approvals and hooks; its own process in the cells' sandbox.
  const hosted = new LazyHostedAgents({
    open,
    events,
    exec,
    checkpoints,
    hooks,
    settings,
    sandbox: sandboxSetting,
    secretValues: () => secrets.map((s) => s.value),
    keys,
    resourcesDir: opts.resourcesDir,
  });
  // The scheduled tasks: the Schedules screen's requests, and the tasks a person approves in a conversation.
  const scheduleAdmin = new ScheduleAdmin({
    dataDir: opts.dataDir,
    ...(opts.schedules ?? { command: currentOiCommand(process.env), env: process.env }),
    log: (line) => console.warn(`scheduled tasks: ${line}`),
  });
  const agent = new AgentService({
    open,
    schedules: scheduleAdmin,
    profiles: readProfileIn,
    hosted,
    computer,
    conversations,
    exec,
    environment,
    events,
    settings,
    providerFor,
    models,
    // Which models take tool calls (learned by probing) and how failed model calls are retried.
    toolSupport: new ToolSupportMemory(),
    retry: opts.parts?.retry ?? defaultRetryPolicy,
    ...(opts.parts?.checkpoints === false ? {} : { checkpoints }),
    mcp,
    instructions,
    hooks,
    // The person's skills (<data folder>/skills), a workspace's once they trust its folder (same trust).
    skills: { dataDir: opts.dataDir, trusted: () => settings().trustedFolders },
    // The person's memory (<data folder>/memory.md), while the `memory` setting is on.
    memory: { dataDir: opts.dataDir, enabled: () => settings().memory },
  });

  const context: AppContext = {
    dataDir: opts.dataDir,
    resourcesDir: opts.resourcesDir,
    version: opts.version,
    events,
    conversations,
    agent,
    computer,
    exec,
    kernels,
    settings: store,
    keys,
    network,
    hooks,
    secretStorage: opts.secrets.kind,
    notices: [...(opts.notices ?? []), ...(store.notice ? [store.notice] : [])],
    keyVault,
    localServers: opts.localServers ?? DEFAULT_LOCAL_SERVERS,
    workspaceWatchers: new WorkspaceWatchers((conversationId, paths) => events.emit('workspace.changed', { conversationId, paths })),
    models,
    checkpoints,
    mcp,
    mcpApprovals,
    mcpConfig: new McpConfigService({ settings: store, secrets: opts.secrets, mcp, secretsChanged: refreshSecrets }),
    reruns: new LiveReruns({ agent, conversations, exec, events, settings }),
  };

  let warmed = false;
  const warmUp = (): void => {
    if (warmed) return;
    warmed = true;
    void engine.languages().catch(() => undefined);
    checkpoints.prepare();
    mcp.warmUp();
  };

  // One file per feature; the HandlerTable type makes a missing or extra request a compile error.
  const handlers: HandlerTable = {
    ...appHandlers(context, warmUp),
    ...conversationHandlers(context),
    ...chatHandlers(context),
    ...settingsHandlers(context),
    ...workspaceHandlers(context),
    ...keysHandlers(context),
    ...providerHandlers(context),
    ...modelHandlers(context),
    ...checkpointHandlers(context),
    ...notebookHandlers(context),
    ...kernelHandlers(context),
    ...sandboxHandlers(context),
    ...networkHandlers(context),
    ...instructionsHandlers(context),
    ...skillsHandlers(context),
    ...planHandlers(context),
    ...commandsHandlers(context),
    ...memoryHandlers(context),
    ...profilesHandlers(context),
    ...schedulesHandlers(scheduleAdmin),
    ...mcpHandlers(context),
    ...mcpApprovalHandlers(context),
  };

  return {
    handlers,
    events,
    context,
    warmUp,
    mcpApprovalEndpoint: approvalEndpoint,
    async dispose() {
      mcpApprovals.dispose();
      await (await approvalEndpoint)?.close();
      context.workspaceWatchers.dispose();
      await agent.dispose();
      await hosted.dispose();
      await mcp.dispose();
      // Before the sessions close: kernels of saved bindings stay on their servers for the next start.
      await kernels.leave();
      await exec.dispose();
    },
  };
}

// What the model is told about the machine, detected through the engine (the sandbox setting applied)
// and answered first from what the previous process found; a test's fixed stand-in has neither.
function environmentOf(opts: AppOptions, machine: ExecService): EnvironmentContext {
  if (opts.parts?.environment) return new EnvironmentContext(opts.parts.environment);
  return new EnvironmentContext(machineSources(machine), fileEnvironmentSnapshot(path.join(opts.dataDir, 'environment-cache.json')));
}

// Remote kernels: tokens in the keychain under kernel:<url>, bindings saved in the conversation's file.
function remoteKernels(secrets: SecretStore, open: OpenConversations): Kernels.RemoteKernels {
  return new Kernels.RemoteKernels({ tokenFor: (url) => secrets.get(Kernels.kernelAccount(url)), memory: conversationKernelMemory(open) });
}

// A sandboxed conversation's network goes through the app's proxy: registries and allowed hosts pass,
// any other host is asked in the conversation. The person's skills folder is readable (never writable)
// inside it, so a cell can run a skill's script; the data folder is sealed: never writable, even from a
// workspace that contains it (hooks.json there runs outside the sandbox).
function sandboxFor(setting: SandboxSettings, dataDir: string): SandboxSettings {
  return Sandbox.withSealedFolder(Sandbox.withReadableFolder(setting, userSkillsFolder(dataDir)), dataDir);
}
