import type { CellItem } from '@contract';
import { EXECUTE_TOOL_NAME } from '../llm/execute-tool';
import type { McpTool } from '../mcp/mcp-manager';
import type { LiveConversation } from './live-conversation';
import { executeMcpCell, mcpArgsAsCode } from './mcp-cell';
import { planModeNote, planModeRefusal } from './plan/plan-sandbox';
import { parseExecuteArgs } from './reply/tool-call-assembler';
import type { CallContext, CallOutcome } from './call-context';
import type { StepCall } from './stream-step';
import { allowedTool, approve, executeCell, finishCell } from './turn-cell';
import type { TurnDeps } from './turn-deps';
import * as hooks from './turn-hooks';
import { noSuchTool } from './turn-messages';

// A call that runs code: the execute tool, an MCP server's tool, or a fenced block. Its code is taken
// from the arguments, plan mode and the person's hooks may refuse it, the person approves it (or
// auto-run does), and then it runs, in a session or on its MCP server.

const FAILED = new Set(['failed', 'timeout', 'died', 'unavailable']);

export async function runCodeCall(live: LiveConversation, deps: TurnDeps, call: StepCall, context: CallContext): Promise<CallOutcome> {
  const { cell } = call;
  const mcpTool = context.mcpTools.find((t) => t.name === call.name);
  if (!codeOfCall(live, deps, call, context.mcpTools, mcpTool)) return 'failed';
  // The real names: the language holds them sanitised, and two tools may sanitise alike.
  if (mcpTool) cell.mcp = { server: mcpTool.server, tool: mcpTool.tool };
  const planRefusal = planModeRefusal(live.conv, cell, mcpTool !== undefined);
  if (planRefusal) {
    finishCell(live, deps.events, cell, 'skipped', planRefusal);
    return 'done';
  }
  const permitted = await permission(live, deps, cell, mcpTool, context);
  if (permitted !== 'run') return permitted;
  if (mcpTool && deps.mcp) {
    await context.recorded;
    const result = await executeMcpCell(
      live,
      cell,
      mcpTool,
      { mcp: deps.mcp, events: deps.events, settings: context.settings },
      context.signal,
    );
    cell.outputs = result.outputs;
    cell.durationMs = result.durationMs;
    finishCell(live, deps.events, cell, result.status, result.forModel);
    // As for code: the cell's Stop ends only this call, the composer's Stop ends the turn.
    if (result.status === 'interrupted') return context.signal.aborted ? 'stop' : 'done';
    return FAILED.has(cell.status) ? 'failed' : 'done';
  }
  return runCode(live, deps, cell, context);
}

/**
 * Puts the call's code (and language) on its cell from the tool's arguments, or for an MCP tool written
 * as a fenced block, from the block's JSON. False when they do not parse: the cell has failed.
 */
function codeOfCall(live: LiveConversation, deps: TurnDeps, call: StepCall, mcpTools: McpTool[], mcpTool: McpTool | undefined): boolean {
  const { cell, args, name } = call;
  if (args !== null) {
    const parsed = mcpTool
      ? mcpArgsAsCode(args)
      : name === EXECUTE_TOOL_NAME
        ? parseExecuteArgs(args)
        : ({ ok: false, error: noSuchTool(name, mcpTools) } as const);
    if (!parsed.ok) return failed(live, deps, cell, parsed.error);
    cell.language = mcpTool ? mcpTool.language : parsed.language;
    cell.code = parsed.code;
  } else if (mcpTool) {
    // Written as a fenced block (a model without tool calling): its code is the JSON arguments.
    const parsed = mcpArgsAsCode(cell.code);
    if (!parsed.ok) return failed(live, deps, cell, parsed.error);
    cell.code = parsed.code;
  }
  return true;
}

/** Ends a cell whose code could not be read: the model reads why. Always false (the cell did not run). */
function failed(live: LiveConversation, deps: TurnDeps, cell: CellItem, error: string): false {
  finishCell(live, deps.events, cell, 'failed', `Error: ${error}`);
  return false;
}

/**
 * The person's beforeCell hooks, then approval: 'run', or how the call ended without running (its cell
 * ended, saying why). A tool the user chose to always allow (Settings, or the approval bar) runs
 * without asking, unless a hook asks.
 */
async function permission(
  live: LiveConversation,
  deps: TurnDeps,
  cell: CellItem,
  mcpTool: McpTool | undefined,
  context: CallContext,
): Promise<'run' | 'done' | 'stop'> {
  const guard = await hooks.beforeCellHooks(live, deps, cell);
  if (guard.kind === 'deny') {
    finishCell(live, deps.events, cell, 'skipped', hooks.refusedByHook(guard.reason));
    return 'done';
  }
  const decision =
    mcpTool?.alwaysAllow && guard.kind === 'run'
      ? allowedTool(cell)
      : await approve(live, deps.events, context.settings, cell, context.signal, {
          mustAsk: guard.kind === 'ask',
          onWaiting: () => hooks.needsPersonHooks(live, deps, 'approval', { cell: hooks.describeCell(cell) }),
        });
  if (decision === 'stop') {
    finishCell(live, deps.events, cell, 'skipped', 'Not run: the user stopped the turn.');
    return 'stop';
  }
  if (decision === 'skip') {
    cell.approval = 'declined';
    finishCell(live, deps.events, cell, 'skipped', 'The user declined to run this code.');
    return 'done';
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
    return 'done';
  }
  return 'run';
}

/** The approved code, run in its session; a failure that repeats the previous one is pointed out to the model. */
async function runCode(live: LiveConversation, deps: TurnDeps, cell: CellItem, context: CallContext): Promise<CallOutcome> {
  const userStopped = await executeCell(live, deps, context.settings, cell, context.signal, context);
  cell.resultForModel = `${cell.resultForModel ?? ''}${planModeNote(live.conv, cell)}`;
  // The result counts too: an automatic install reports the command it ran there.
  deps.environment.noteRun(`${cell.code}\n${cell.resultForModel ?? ''}`);
  if (userStopped) {
    // The composer's Stop ends the turn; the cell's own Stop ends only that run, and the model
    // goes on, told the user stopped it (not counted as a failed attempt: it was a decision).
    return context.signal.aborted ? 'stop' : 'done';
  }
  if (!FAILED.has(cell.status)) return 'done';
  if (cell.resultForModel !== null && cell.resultForModel === context.errors.last) {
    cell.resultForModel += '\n\nNote: this is the same error as your previous attempt. Try a different approach.';
  }
  context.errors.last = cell.resultForModel;
  return 'failed';
}
