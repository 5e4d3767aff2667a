import type { Settings } from '@contract';
import type { EventBus } from '../bridge/event-bus';
import type { CheckpointService } from '../checkpoints/checkpoint-service';
import type { ConversationStore } from '../conversations/conversation-store';
import type { ExecService } from '../exec';
import type { HookRunner } from '../hooks/hook-runner';
import type { Provider } from '../llm/provider';
import type { RetryPolicy } from '../llm/retry-with-backoff';
import type { ToolSupportMemory } from '../llm/tool-support';
import type { McpManager } from '../mcp/mcp-manager';
import type { ComputerService } from './computer-cell';
import type { ProfileReader } from './conversation-profile';
import type { EnvironmentContext } from './environment-context';
import type { ModelKnowledge } from './model-knowledge';
import type { InstructionSources } from './project-instructions';
import type { MemorySources } from './prompt-sections';
import type { ScheduleTasks } from './schedule-cell';
import type { SkillSources } from './skills/skill-discovery';
import type { Subagents } from './subagents/subagent-runner';

/** What a turn works with: the app's stores and services, as AgentService holds them (agent-service.ts). */
export interface TurnDeps {
  conversations: ConversationStore;
  exec: ExecService;
  events: EventBus;
  settings: () => Settings;
  providerFor: (settings: Settings) => Promise<Provider>;
  environment: EnvironmentContext;
  toolSupport: ToolSupportMemory;
  retry: RetryPolicy;
  /** How the model calls tools (probed) and the window its server runs it with. */
  models: ModelKnowledge;
  /** Workspace checkpoints around each cell; absent where nothing is recorded (some tests). */
  checkpoints?: CheckpointService;
  /** MCP servers whose tools the model is offered (docs/mcp.md); absent where none are used. */
  mcp?: McpManager;
  /** Where AGENTS.md files come from (project-instructions.ts); absent: none are read (some tests). */
  instructions?: InstructionSources;
  /** The person's hooks (docs/agent.md#hooks); absent: none run (some tests). */
  hooks?: HookRunner;
  /** Where skills come from (skills/skill-discovery.ts); absent: none are offered (some tests). */
  skills?: SkillSources;
  /** Reads a conversation's profile from the data folder (conversation-profile.ts); absent: profiles are not applied. */
  profiles?: ProfileReader;
  /** Where memory is kept and whether it is on (docs/agent.md#memory); absent: none (some tests). */
  memory?: MemorySources;
  /** The screen, for conversations with computer use on (docs/computer-use.md); absent: never offered. */
  computer?: ComputerService;
  /** Runs `delegate` calls as sub-agents (subagents/); absent: the tool is not offered (sub-agents themselves, some tests). */
  subagents?: Subagents;
  /** Makes the scheduled tasks the person approves (schedule-cell.ts); absent: schedule_task is not offered. */
  schedules?: ScheduleTasks;
}
