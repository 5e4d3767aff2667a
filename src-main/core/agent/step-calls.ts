import type { CellItem } from '@contract';
import { DELEGATE_TOOL } from '../llm/delegate-tool';
import { planLanguage } from '../llm/plan-tools';
import { executeAppToolCell, isAppTool } from './app-tool-cell';
import { ASKED_TOOLS, askedToolCell } from './asked-tool-cells';
import type { CallContext, CallOutcome } from './call-context';
import { runCodeCall } from './code-call';
import type { LiveConversation } from './live-conversation';
import * as plan from './plan/plan-cell';
import type { StepCall } from './stream-step';
import { finishCell } from './turn-cell';
import type { TurnDeps } from './turn-deps';
import * as hooks from './turn-hooks';

// The tool calls of one model step, each to the handler of its kind: a sub-agent (delegate), a call
// the person is asked about (computer, schedule_task), a plan tool, an app tool (skills, memory), or
// code (code-call.ts: execute, an MCP tool, a fenced block). A new kind of call gets its branch in
// dispatchCall.

/**
 * Runs the step's calls one after the other (sub-agents side by side): whether one failed, and whether
 * the turn stops after the step (the calls after a stop are skipped, each saying so).
 */
export async function runStepCalls(
  live: LiveConversation,
  deps: TurnDeps,
  calls: StepCall[],
  context: CallContext,
): Promise<{ failed: boolean; stop: boolean }> {
  let failed = false;
  let stop = false;
  let previous: CellItem | null = null;
  // Sub-agents (delegate calls) all start now, side by side, once the reply is on disk; each cell below waits for its own.
  if (calls.some((c) => c.name === DELEGATE_TOOL)) await context.recorded;
  const delegated = deps.subagents?.start(live, calls, context.settings, context.signal) ?? new Map<string, Promise<boolean>>();
  for (const call of calls) {
    const { cell } = call;
    // Each cell is reported to the afterCell hooks once it has ended, however it ended, before the next.
    if (previous) await hooks.afterCellHooks(live, deps, previous);
    previous = cell;
    const subagent = delegated.get(cell.id);
    if (subagent) {
      if (!(await subagent)) failed = true;
      continue;
    }
    if (stop) {
      finishCell(live, deps.events, cell, 'skipped', 'Not run: the turn was stopped before this code.');
      continue;
    }
    const outcome = await dispatchCall(live, deps, call, context);
    if (outcome === 'stop') stop = true;
    else if (outcome === 'failed') failed = true;
  }
  if (previous) await hooks.afterCellHooks(live, deps, previous);
  return { failed, stop };
}

/** One call, to the handler of its kind. */
async function dispatchCall(live: LiveConversation, deps: TurnDeps, call: StepCall, context: CallContext): Promise<CallOutcome> {
  const { cell, args, name } = call;
  // A code call waits for the reply's save beside its checkpoint (turn-cell.ts), the others here.
  if (args !== null && (ASKED_TOOLS.has(name) || planLanguage(name) !== null || isAppTool(name, deps))) await context.recorded;
  const asked = askedToolCell(live, deps, context.settings, call, context.signal);
  if (asked) return asked;
  if (args !== null && planLanguage(name)) {
    const outcome = await plan.runPlanToolCall(live, deps.events, cell, { tool: name, args }, context.signal);
    return outcome === 'ok' ? 'done' : outcome;
  }
  if (args !== null && isAppTool(name, deps)) return (await executeAppToolCell(live, deps, cell, { tool: name, args })) ? 'done' : 'failed';
  return runCodeCall(live, deps, call, context);
}
