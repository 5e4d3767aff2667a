import type { Conversation, Settings } from '@contract';
import { executeTool } from '../llm/execute-tool';
import { memoryTool, skillTools } from '../llm/skill-tools';
import { computerTool } from '../llm/computer-tool';
import { recentScreenshots } from '../computer/screenshot-history';
import { delegateTool } from '../llm/delegate-tool';
import { scheduleTool } from '../llm/schedule-tool';
import { modelInfo, modelLimits, thinkingBudget, type ModelInfo } from '../llm/model-catalog';
import type { ProviderRequest, ToolSpec } from '../llm/provider';
import { loadedTokenCounter, MESSAGE_OVERHEAD_TOKENS, tokenCounterFor, type TokenCounter } from '../llm/token-counter';
import { loadImages } from './attachment-images';
import type { EnvironmentContext } from './environment-context';
import { fitHistory, type FitResult } from './history-fit';
import { buildSystemPrompt, type PromptMcpTool } from './system-prompt';
import { withWorkspaceNotes } from './workspace-change-note';
import type { PlanSection } from './plan/plan-prompt';

export interface PreparedStep {
  request: Omit<ProviderRequest, 'signal'>;
  info: ModelInfo;
  counter: TokenCounter;
  fit: FitResult;
  /** Tokens of the whole prompt (system, tools, fitted history), as estimated before the call. */
  promptTokens: number;
  contextWindow: number;
}

/** Shortened outputs keep this many characters; enough for a traceback's head and its last lines. */
const TRIMMED_OUTPUT_CHARS = 1200;
/** Slack for what our count cannot see exactly (message framing, tool schema encoding). */
const SAFETY_FRACTION = 0.04;

/**
 * Everything the next model call sends: the system prompt with the environment, the history fitted
 * to the window, images for models that see them, and the tool (or none, in fenced-code mode).
 */
export async function prepareStep(
  conv: Conversation,
  settings: Settings,
  environment: EnvironmentContext,
  tools: boolean,
  /** MCP servers' tools: offered as tools with tool calling on, listed in the prompt in fenced-code mode. */
  mcpTools: PromptMcpTool[] = [],
  /**
   * The project instructions', skills', memory's (null when off) and plan mode's prompt sections
   * (prompt-sections.ts, plan/); whether the computer tool (docs/computer-use.md) and the delegate
   * tool (docs/agent.md#sub-agents) are offered.
   */
  sections: {
    instructions?: string;
    skills?: string;
    memory?: string | null;
    plan?: PlanSection;
    computer?: boolean;
    delegate?: boolean;
    /** schedule_task (docs/schedules.md#from-a-conversation): a task the person approves. */
    schedule?: boolean;
  } = {},
): Promise<PreparedStep> {
  const extraTools: ToolSpec[] = mcpTools.map((t) => ({ name: t.name, description: t.description, parameters: t.inputSchema }));
  // The skill tools only with skills to offer: a model with none has nothing to load.
  if (sections.skills) extraTools.push(...skillTools);
  if (sections.plan) extraTools.push(...sections.plan.tools);
  // The memory tool while memory is on, even with nothing saved yet.
  if (typeof sections.memory === 'string') extraTools.push(memoryTool);
  if (sections.computer) extraTools.push(computerTool);
  // Sub-agents (docs/agent.md#sub-agents): offered to a top-level conversation's model only.
  if (sections.delegate) extraTools.push(delegateTool);
  if (sections.schedule) extraTools.push(scheduleTool);
  const info = modelInfo(settings.provider, settings.model);
  const limits = modelLimits(settings);
  const [envText, images] = await Promise.all([
    environment.render(conv.workspace, settings.exec, settings.sandbox),
    info.vision ? loadImages(conv.items, conv.workspace) : Promise.resolve(new Map()),
  ]);
  const toolList = tools ? [executeTool, ...extraTools] : [];
  const promptFor = (droppedTurns: number) =>
    buildSystemPrompt({
      environment: envText,
      customInstructions: settings.customInstructions,
      projectInstructions: sections.instructions ?? '',
      skills: sections.skills ?? '',
      plan: sections.plan?.prompt ?? '',
      memory: sections.memory ?? '',
      toolCalling: tools,
      droppedTurns,
      mcpTools,
    });
  const fitWith = (counter: TokenCounter) => {
    const fixedTokens = counter.count(promptFor(1)) + (tools ? counter.count(JSON.stringify(toolList)) : 0) + 2 * MESSAGE_OVERHEAD_TOKENS;
    const budget = Math.floor(limits.contextWindow * (1 - SAFETY_FRACTION)) - limits.maxOutputTokens - fixedTokens;
    const fit = fitHistory({
      items: withWorkspaceNotes(conv.items),
      budget,
      counter,
      images: info.vision,
      trimmedOutputChars: TRIMMED_OUTPUT_CHARS,
    });
    return { counter, fixedTokens, budget, fit };
  };
  // The estimate over-counts, so when it fits with room to spare the exact tokenizer (most of a
  // second to load) is not needed yet.
  let fitted = fitWith(loadedTokenCounter(info));
  if (!fitted.counter.exact && info.encoding && fitted.fit.tokens > fitted.budget / 2) fitted = fitWith(await tokenCounterFor(info));
  const { counter, fixedTokens, fit } = fitted;
  return {
    request: {
      model: settings.model,
      system: promptFor(fit.droppedTurns),
      items: fit.items,
      tools: toolList,
      images,
      screenshots: info.vision ? recentScreenshots(fit.items) : new Map(),
      temperature: settings.temperature,
      maxOutputTokens: limits.maxOutputTokens,
      maxOutputTokensSet: limits.maxOutputTokensSet,
      thinkingBudgetTokens: thinkingBudget(settings),
      reasoningEffort: settings.reasoningEffort,
      promptTokens: fit.tokens + fixedTokens,
      contextWindow: limits.contextWindow,
    },
    info,
    counter,
    fit,
    promptTokens: fit.tokens + fixedTokens,
    contextWindow: limits.contextWindow,
  };
}
