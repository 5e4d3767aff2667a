import type { CellItem, RunLimits, Settings } from '@contract';
import type { EventBus } from '../bridge/event-bus';
import type { ExecService, InputAsker, RunComputer, RunResult } from '../exec';
import { now } from './ids';
import { applyDisplayUpdate } from './display-updates';
import type { LiveConversation } from './live-conversation';
import { linkedAbort } from './linked-abort';

export function limitsFromSettings(settings: Settings): RunLimits {
  return {
    timeoutMs: settings.exec.timeoutMs,
    memoryMb: settings.exec.memoryMb,
    cpuSeconds: settings.exec.cpuSeconds,
    maxProcesses: settings.exec.maxProcesses,
    // The engine reports exactly which protections held once the run starts (RunResult.limits).
    sandbox: settings.sandbox.enabled ? 'on' : null,
  };
}

/** Runs one approved cell in the execution engine, streaming its output as events. */
export async function runCell(
  live: LiveConversation,
  cell: CellItem,
  deps: { exec: ExecService; events: EventBus; settings: Settings; onAsked?: (prompt: string) => void; computer?: RunComputer },
  turnSignal: AbortSignal,
): Promise<RunResult> {
  const conversationId = live.conv.id;
  return whileRunning(live, cell, deps, turnSignal, (signal) =>
    deps.exec.run({
      conversationId,
      workspace: live.conv.workspace,
      language: cell.language,
      code: cell.code,
      // The sandbox is applied by the engine the app builds (exec/sandbox/sandbox-policy.ts), to every run.
      settings: deps.settings.exec,
      signal,
      // The cell's id names the run, so keys typed into its terminal find it (and its spill file).
      runId: cell.id,
      // "When code asks for input: ask me / end the input" (without an asker the engine ends it at once).
      ...(deps.settings.exec.inputRequests === 'ask'
        ? { onInput: tellingAsker(live.inputs.askerFor(conversationId, cell.id, deps.events), deps.onAsked) }
        : {}),
      // `computer.*` in the code (docs/computer-use.md#in-code); without it every action is refused.
      ...(deps.computer ? { onComputer: deps.computer } : {}),
      onTerminal: (data) => deps.events.emit('cell.terminal', { conversationId, cellId: cell.id, data }),
      onOutput: (output) => deps.events.emit('cell.output', { conversationId, cellId: cell.id, output }),
      onDisplayUpdate: (update) => applyDisplayUpdate(live, update, deps.events),
    }),
  );
}

/** The asker, telling `onAsked` (the needsPerson hooks) each time the program asks the person. */
function tellingAsker(asker: InputAsker, onAsked?: (prompt: string) => void): InputAsker {
  if (!onAsked) return asker;
  return (question, signal) => {
    const answer = asker(question, signal);
    onAsked(question.prompt);
    return answer;
  };
}

/**
 * Marks a cell running (numbered, its limits, `cell.running`) for as long as `body` runs, with a signal
 * that the turn's stop and the cell's own stop button (the live run controller) both fire.
 */
export async function whileRunning<T>(
  live: LiveConversation,
  cell: CellItem,
  deps: { events: EventBus; settings: Settings },
  turnSignal: AbortSignal,
  body: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const { controller, release } = linkedAbort(turnSignal);
  live.runController = controller;
  live.runningCellId = cell.id;

  cell.status = 'running';
  cell.startedAt = now();
  cell.executionCount = nextExecutionCount(live);
  cell.limits = limitsFromSettings(deps.settings);
  deps.events.emit('cell.running', {
    conversationId: live.conv.id,
    cellId: cell.id,
    code: cell.code,
    startedAt: cell.startedAt,
    limits: cell.limits,
    executionCount: cell.executionCount,
  });
  try {
    return await body(controller.signal);
  } finally {
    release();
    live.runController = null;
    live.runningCellId = null;
  }
}

function nextExecutionCount(live: LiveConversation): number {
  let max = 0;
  for (const item of live.conv.items) if (item.kind === 'cell' && item.executionCount !== null) max = Math.max(max, item.executionCount);
  return max + 1;
}
