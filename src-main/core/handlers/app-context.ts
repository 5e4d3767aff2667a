import type { NetworkQuestions } from '../agent/network-questions';
import type { AgentService } from '../agent/agent-service';
import type { ComputerService } from '../agent/computer-cell';
import type { ModelKnowledge } from '../agent/model-knowledge';
import type { CheckpointService } from '../checkpoints/checkpoint-service';
import type { EventBus } from '../bridge/event-bus';
import type { ConversationStore } from '../conversations/conversation-store';
import type { ExecService, Kernels } from '../exec';
import type { KeySource } from '../llm/provider-factory';
import type { KeyVault } from '../providers/key-vault';
import type { LiveReruns } from '../notebook/live-reruns';
import type { McpConfigService } from '../mcp/mcp-config-service';
import type { McpManager } from '../mcp/mcp-manager';
import type { McpApprovalQuestions } from '../mcp-approval/approval-questions';
import type { HookRunner } from '../hooks/hook-runner';
import type { LocalServerSpec } from '../providers/local-servers';
import type { SettingsStore } from '../settings/settings-store';
import type { WorkspaceWatchers } from '../workspace/workspace-watcher';

/** The services a feature's handlers may use; built once, in dependency order, in app.ts. */
export interface AppContext {
  dataDir: string;
  /** The app's own resources (runners, shell scripts): read-only, never a workspace. */
  resourcesDir: string;
  version: string;
  events: EventBus;
  conversations: ConversationStore;
  agent: AgentService;
  /** The screen, where computer use can work (docs/computer-use.md). */
  computer: ComputerService;
  exec: ExecService;
  /** Remote Jupyter kernels the conversations are bound to; the engine's router sends their cells there. */
  kernels: Kernels.RemoteKernels;
  settings: SettingsStore;
  keys: KeySource;
  secretStorage: 'keychain' | 'memory';
  notices: string[];
  keyVault: KeyVault;
  localServers: LocalServerSpec[];
  workspaceWatchers: WorkspaceWatchers;
  /** Notebook re-runs in progress: the agent must not run code in the same sessions meanwhile. */
  reruns: LiveReruns;
  /** How each local model calls tools, and the context window its server runs. */
  models: ModelKnowledge;
  /** Workspace checkpoints before and after each cell (docs/checkpoints.md). */
  checkpoints: CheckpointService;
  /** MCP servers: their connections, and their entries in settings (docs/mcp.md). */
  mcp: McpManager;
  mcpConfig: McpConfigService;
  /** Clients of `oi mcp` asking to run code or write files, waiting for the person (docs/mcp.md). */
  mcpApprovals: McpApprovalQuestions;
  /** Where sandboxed code may connect: registries, allowed hosts, and questions in the conversation. */
  network: NetworkQuestions;
  /** The person's hooks (docs/agent.md#hooks): turns, install and network questions, and `oi mcp` run them. */
  hooks: HookRunner;
}
