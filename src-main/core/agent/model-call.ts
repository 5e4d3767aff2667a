import { errorMessage, type Settings } from '@contract';
import { Languages } from '../exec';
import { modelInfo } from '../llm/model-catalog';
import type { Provider } from '../llm/provider';
import type { McpTool } from '../mcp/mcp-manager';
import { planSection } from './plan/plan-prompt';
import { profileSkills } from './conversation-profile';
import type { LiveConversation } from './live-conversation';
import { isLocal, targetOf } from './model-knowledge';
import { promptSections } from './prompt-sections';
import { hasRunnableBlock } from './reply/fenced-code-parser';
import { scheduleOffered } from './schedule-cell';
import { prepareStep } from './step-request';
import { streamStep, type StepOutcome } from './stream-step';
import * as hooks from './turn-hooks';
import { retryMessage } from './turn-messages';
import { addNotice, noteFit } from './turn-notices';
import type { TurnDeps } from './turn-deps';

/** One model call with the history fitted; falls back to fenced code blocks if the model refuses tools. */
export async function callModel(
  live: LiveConversation,
  deps: TurnDeps,
  given: Settings,
  provider: Provider,
  signal: AbortSignal,
  /** The last step's writes (turn.ts): the request is built meanwhile, sent once they are on disk. */
  written: Promise<boolean> = Promise.resolve(false),
): Promise<StepOutcome & { mcpTools: McpTool[] }> {
  const [capability, context] = await Promise.all([deps.models.capabilityOf(targetOf(given)), deps.models.contextWindow(given)]);
  // The window the server really runs (or the Ollama cap) decides the fit, unless the user set one.
  const settings: Settings = { ...given, contextWindow: context.window };
  // A model the probe found unable to call tools in any form writes fenced code blocks instead.
  const canCall = capability === null || capability.mode === 'native' || capability.mode === 'text';
  let tools = settings.toolCalling !== 'off' && !deps.toolSupport.refuses(settings) && canCall;
  for (;;) {
    // MCP servers start here, the first time a turn needs them; a server that fails is left out. A model
    // without tool calling gets them listed in the prompt and calls them with fenced blocks.
    const mcpTools = deps.mcp ? await deps.mcp.tools() : [];
    // Read before every call: a file changed between turns (or by the turn's own cells) counts.
    const sections = await promptSections(live.conv.workspace, deps, tools, (found) => profileSkills(live, found));
    const computer = deps.computer?.offered(live.conv, modelInfo(settings.provider, settings.model).vision, tools) ?? false;
    // Sub-agents start none of their own; plan mode starts none (they would write outside its sandbox).
    const delegate = !!deps.subagents && !live.subagent && !live.conv.planMode;
    const prepared = await prepareStep(live.conv, settings, deps.environment, tools, mcpTools, {
      ...sections,
      plan: planSection(live.conv, tools),
      computer,
      delegate,
      schedule: !!deps.schedules && scheduleOffered(live, tools),
    });
    // Built again when those writes changed what the model reads (a checkpoint list that failed).
    if (await written.then((changed) => ((written = Promise.resolve(false)), changed))) continue;
    noteFit(live, deps.events, prepared.fit, prepared.contextWindow);
    await hooks.fireHooks(live, deps, 'beforeModelCall', null, { provider: settings.provider, model: settings.model, tools });
    const step = await streamStep(
      live,
      prepared.request,
      {
        provider,
        events: deps.events,
        retry: deps.retry,
        info: prepared.info,
        counter: prepared.counter,
        promptTokens: prepared.promptTokens,
        ...(tools ? {} : { fencedTools: new Map(mcpTools.map((t) => [t.language, t.name])) }),
        // Unprobed, a local model's own answer tells whether it wrote code as a fenced block.
        dialectFromAnswer: capability === null && isLocal(settings.provider),
        onRetry: (notice) => addNotice(live, deps.events, 'info', retryMessage(notice)),
      },
      signal,
    ).finally(() => deps.environment.refreshStored());
    deps.events.emit('usage.updated', {
      conversationId: live.conv.id,
      usage: live.conv.usage,
      contextTokens: Math.max(0, Math.round(prepared.promptTokens)),
      contextWindow: prepared.contextWindow,
    });
    if (step.toolsRefused && tools) {
      deps.toolSupport.noteRefusal(settings);
      addNotice(
        live,
        deps.events,
        'info',
        `${settings.model} does not accept tool definitions here, so it will write code in fenced blocks instead (${errorMessage(step.error)}).`,
      );
      tools = false;
      continue;
    }
    if (
      tools &&
      step.calls.length === 0 &&
      !step.error &&
      capability !== null &&
      hasRunnableBlock(step.text, (info) => Languages.findLanguage(info)?.name ?? null)
    ) {
      // It called tools when probed but wrote a code block now: ask again how it calls tools now.
      const again = await deps.models.probe(given).catch(() => null);
      if (again && again.mode !== capability.mode) {
        addNotice(
          live,
          deps.events,
          'info',
          `${given.model} wrote code in a block instead of calling the tool; a new check found it ${again.detail ?? again.mode}, so the next replies are asked for in that form. Send "run it" to run this code.`,
        );
      }
    }
    return { ...step, mcpTools };
  }
}
