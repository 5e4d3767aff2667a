import { errorMessage, type CellItem, type ModelChoice, type Settings } from '@contract';
import { EXECUTE_TOOL_NAME } from '../llm/execute-tool';
import { modelInfo } from '../llm/model-catalog';
import { classifyFailure, describeFailure } from '../llm/provider-errors';
import { noSuchTool } from './turn-messages';
import { askedToolCell } from './asked-tool-cells';
import type { LiveConversation } from './live-conversation';
import { allowedTool, approve, executeCell, finishCell, settleUnfinishedCells } from './turn-cell';
import { executeMcpCell, mcpArgsAsCode } from './mcp-cell';
import { withConversationProfile } from './conversation-profile';
import { executeAppToolCell, isAppTool } from './app-tool-cell';
import { parseExecuteArgs } from './reply/tool-call-assembler';
import * as hooks from './turn-hooks';
import { addNotice, flushQueuedMessages } from './turn-notices';
import * as plan from './plan/plan-cell';
import { planLanguage } from '../llm/plan-tools';
import { planModeNote, planModeRefusal } from './plan/plan-sandbox';
import { limitReached } from './turn-limits';
import { touch } from './conversation-changes';
import type { TurnDeps } from './turn-deps';
import { callModel } from './model-call';

type EndReason = 'done' | 'stopped' | 'error' | 'attempts-exhausted' | 'budget' | 'awaiting-user';

const FAILED = new Set(['failed', 'timeout', 'died', 'unavailable']);

/**
 * The agent loop for one user message: call the model, show its code, run what the user approves,
 * give the results back, and go on until the model answers without code, the user stops it, too
 * many runs in a row fail, or the conversation's budget is spent.
 */
export async function runTurn(live: LiveConversation, deps: TurnDeps, signal: AbortSignal): Promise<void> {
  const conversationId = live.conv.id;
  let failuresInARow = 0;
  let lastError: string | null = null;
  let reason: EndReason = 'done';
  let modelCalls = 0;
  deps.events.emit('turn.start', { conversationId });
  try {
    withConversationProfile(live, deps.settings(), deps.profiles); // its hooks, before the first are fired
    await hooks.conversationStartHooks(live, deps);
    for (;;) {
      flushQueuedMessages(live, deps.events);
      if (signal.aborted) {
        reason = 'stopped';
        break;
      }
      const settings = conversationSettings(withConversationProfile(live, deps.settings(), deps.profiles), live.conv.modelChoice);
      const limit = limitReached(live, settings, modelCalls++);
      if (limit) {
        addNotice(live, deps.events, 'warning', limit);
        reason = 'budget';
        break;
      }
      if (settings.budgetUsd !== null && !live.priceWarned && modelInfo(settings.provider, settings.model).inputPerMTok === null) {
        live.priceWarned = true;
        addNotice(
          live,
          deps.events,
          'warning',
          `The price of ${settings.model} is not in the app's table, so its use is not counted against the $${settings.budgetUsd.toFixed(2)} budget.`,
        );
      }
      const provider = await deps.providerFor(settings);
      const step = await callModel(live, deps, settings, provider, signal);
      await deps.conversations.save(live.conv);
      if (step.error) {
        for (const { cell } of step.calls)
          finishCell(live, deps.events, cell, 'interrupted', "The model's reply broke off before this code was complete; it was not run.");
        addNotice(
          live,
          deps.events,
          'error',
          `The model call failed: ${describeFailure(classifyFailure(step.error), provider.kind, provider.endpoint)}`,
        );
        reason = 'error';
        break;
      }
      if (signal.aborted) {
        for (const { cell } of step.calls)
          finishCell(live, deps.events, cell, 'interrupted', 'The user stopped the turn before this code ran.');
        reason = 'stopped';
        break;
      }
      if (step.calls.length === 0) break;

      let stepFailed = false;
      let stopAfterStep: EndReason | null = null;
      let previous: CellItem | null = null;
      // Sub-agents (delegate calls) all start now, side by side; each cell below waits for its own.
      const delegated = deps.subagents?.start(live, step.calls, settings, signal) ?? new Map<string, Promise<boolean>>();
      for (const { cell, args, name } of step.calls) {
        // Each cell is reported to the afterCell hooks once it has ended, however it ended, before the next.
        if (previous) await hooks.afterCellHooks(live, deps, previous);
        previous = cell;
        const subagent = delegated.get(cell.id);
        if (subagent) {
          if (!(await subagent)) stepFailed = true;
          continue;
        }
        if (stopAfterStep) {
          finishCell(live, deps.events, cell, 'skipped', 'Not run: the turn was stopped before this code.');
          continue;
        }
        const asked = askedToolCell(live, deps, settings, { cell, args, name }, signal);
        if (asked) {
          const outcome = await asked;
          if (outcome === 'stop') stopAfterStep = 'stopped';
          stepFailed ||= outcome === 'failed';
          continue;
        }
        const mcpTool = step.mcpTools.find((t) => t.name === name);
        if (args !== null && planLanguage(name)) {
          const outcome = await plan.runPlanToolCall(live, deps.events, cell, { tool: name, args }, signal);
          if (outcome === 'stop') stopAfterStep = 'stopped';
          else if (outcome === 'failed') stepFailed = true;
          continue;
        }
        if (args !== null && isAppTool(name, deps)) {
          if (!(await executeAppToolCell(live, deps, cell, { tool: name, args }))) stepFailed = true;
          continue;
        }
        if (args !== null) {
          const parsed = mcpTool
            ? mcpArgsAsCode(args)
            : name === EXECUTE_TOOL_NAME
              ? parseExecuteArgs(args)
              : ({ ok: false, error: noSuchTool(name, step.mcpTools) } as const);
          if (!parsed.ok) {
            finishCell(live, deps.events, cell, 'failed', `Error: ${parsed.error}`);
            stepFailed = true;
            continue;
          }
          cell.language = mcpTool ? mcpTool.language : parsed.language;
          cell.code = parsed.code;
        } else if (mcpTool) {
          // Written as a fenced block (a model without tool calling): its code is the JSON arguments.
          const parsed = mcpArgsAsCode(cell.code);
          if (!parsed.ok) {
            finishCell(live, deps.events, cell, 'failed', `Error: ${parsed.error}`);
            stepFailed = true;
            continue;
          }
          cell.code = parsed.code;
        }
        // The real names: the language holds them sanitised, and two tools may sanitise alike.
        if (mcpTool) cell.mcp = { server: mcpTool.server, tool: mcpTool.tool };
        const planRefusal = planModeRefusal(live.conv, cell, mcpTool !== undefined);
        if (planRefusal) {
          finishCell(live, deps.events, cell, 'skipped', planRefusal);
          continue;
        }
        const guard = await hooks.beforeCellHooks(live, deps, cell);
        if (guard.kind === 'deny') {
          finishCell(live, deps.events, cell, 'skipped', hooks.refusedByHook(guard.reason));
          continue;
        }
        // A tool the user chose to always allow (Settings, or the approval bar) runs without asking, unless a hook asks.
        const decision =
          mcpTool?.alwaysAllow && guard.kind === 'run'
            ? allowedTool(cell)
            : await approve(live, deps.events, settings, cell, signal, {
                mustAsk: guard.kind === 'ask',
                onWaiting: () => hooks.needsPersonHooks(live, deps, 'approval', { cell: hooks.describeCell(cell) }),
              });
        if (decision === 'stop') {
          finishCell(live, deps.events, cell, 'skipped', 'Not run: the user stopped the turn.');
          stopAfterStep = 'stopped';
          continue;
        }
        if (decision === 'skip') {
          cell.approval = 'declined';
          finishCell(live, deps.events, cell, 'skipped', 'The user declined to run this code.');
          continue;
        }
        if (decision === 'unasked') {
          // Nobody declined: there was nobody to ask (issue 25, item 7). The model must not read a refusal.
          finishCell(
            live,
            deps.events,
            cell,
            'skipped',
            'Not run: nobody could be asked to approve it (no one at a terminal, and running without asking is off).',
          );
          continue;
        }
        if (mcpTool && deps.mcp) {
          const result = await executeMcpCell(live, cell, mcpTool, { mcp: deps.mcp, events: deps.events, settings }, signal);
          cell.outputs = result.outputs;
          cell.durationMs = result.durationMs;
          finishCell(live, deps.events, cell, result.status, result.forModel);
          // As for code: the cell's Stop ends only this call, the composer's Stop ends the turn.
          if (result.status === 'interrupted') {
            if (signal.aborted) stopAfterStep = 'stopped';
            continue;
          }
          if (FAILED.has(cell.status)) stepFailed = true;
          continue;
        }
        const userStopped = await executeCell(live, deps, settings, cell, signal);
        cell.resultForModel = `${cell.resultForModel ?? ''}${planModeNote(live.conv, cell)}`;
        // The result counts too: an automatic install reports the command it ran there.
        deps.environment.noteRun(`${cell.code}\n${cell.resultForModel ?? ''}`);
        if (userStopped) {
          // The composer's Stop ends the turn; the cell's own Stop ends only that run, and the model
          // goes on, told the user stopped it (not counted as a failed attempt: it was a decision).
          if (signal.aborted) stopAfterStep = 'stopped';
          continue;
        }
        if (FAILED.has(cell.status)) {
          stepFailed = true;
          if (cell.resultForModel !== null && cell.resultForModel === lastError) {
            cell.resultForModel += '\n\nNote: this is the same error as your previous attempt. Try a different approach.';
          }
          lastError = cell.resultForModel;
        }
      }
      if (previous) await hooks.afterCellHooks(live, deps, previous);
      await deps.conversations.save(live.conv);
      if (stopAfterStep) {
        reason = stopAfterStep;
        break;
      }
      failuresInARow = stepFailed ? failuresInARow + 1 : 0;
      if (stepFailed && failuresInARow >= settings.maxFailedAttempts) {
        addNotice(
          live,
          deps.events,
          'warning',
          `${failuresInARow} attempts in a row failed, so the agent stopped to let you decide how to go on.`,
        );
        reason = 'attempts-exhausted';
        break;
      }
    }
  } catch (err) {
    addNotice(live, deps.events, 'error', `The turn failed: ${errorMessage(err)}`);
    reason = 'error';
  }
  settleUnfinishedCells(live, deps.events);
  plan.noteOpenSteps(live, deps.events);
  deps.computer?.endTurn(conversationId, deps.events);
  // Before turn.end: front ends take turn.end as the turn's last word (the CLI draws its prompt, oi acp
  // answers the prompt request) and must find it over; a hook's notice is saved with the turn.
  await hooks.fireHooks(live, deps, 'turnEnd', null, { reason }).catch(() => null);
  touch(live.conv, deps.events);
  await deps.conversations.save(live.conv).catch((err: unknown) => {
    deps.events.emit('error', { conversationId, message: `could not save the conversation: ${errorMessage(err)}`, code: 'save-failed' });
  });
  deps.events.emit('turn.end', { conversationId, reason, usage: live.conv.usage });
}

/** The settings with the conversation's own provider, model and endpoint, when it has them. */
export function conversationSettings(settings: Settings, choice: ModelChoice | undefined): Settings {
  return choice ? { ...settings, provider: choice.provider, model: choice.model, baseUrl: choice.baseUrl } : settings;
}
