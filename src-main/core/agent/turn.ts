import type { CellItem, NoticeItem, Settings } from '@contract';
import type { EventBus } from '../bridge/event-bus';
import { errorMessage } from '../bridge/dispatch';
import type { ConversationStore } from '../conversations/conversation-store';
import type { ExecService } from '../exec/types';
import type { Provider } from '../llm/provider';
import { newId, now } from './ids';
import type { LiveConversation } from './live-conversation';
import { runCell } from './run-cell';
import { streamStep } from './stream-step';
import { parseExecuteArgs } from './tool-call-assembler';

export interface TurnDeps {
  conversations: ConversationStore;
  exec: ExecService;
  events: EventBus;
  settings: () => Settings;
  providerFor: (settings: Settings) => Promise<Provider>;
}

type EndReason = 'done' | 'stopped' | 'error' | 'attempts-exhausted' | 'awaiting-user';

const FAILED = new Set(['failed', 'timeout', 'died', 'unavailable']);

/**
 * The agent loop for one user message: call the model, show its code, run what the user approves,
 * give the results back, and go on until the model answers without code, the user stops it, or too
 * many runs in a row fail.
 */
export async function runTurn(live: LiveConversation, deps: TurnDeps, signal: AbortSignal): Promise<void> {
  const conversationId = live.conv.id;
  let failuresInARow = 0;
  let lastError: string | null = null;
  let reason: EndReason = 'done';
  deps.events.emit('turn.start', { conversationId });
  try {
    for (;;) {
      flushQueuedMessages(live, deps.events);
      if (signal.aborted) {
        reason = 'stopped';
        break;
      }
      const settings = deps.settings();
      const provider = await deps.providerFor(settings);
      const step = await streamStep(live, { provider, events: deps.events, settings }, signal);
      await deps.conversations.save(live.conv);
      if (step.error) {
        for (const { cell } of step.calls) finishCell(live, deps.events, cell, 'interrupted', 'The model\'s reply broke off before this code was complete; it was not run.');
        addNotice(live, deps.events, 'error', `The model call failed: ${errorMessage(step.error)}`);
        reason = 'error';
        break;
      }
      if (signal.aborted) {
        for (const { cell } of step.calls) finishCell(live, deps.events, cell, 'interrupted', 'The user stopped the turn before this code ran.');
        reason = 'stopped';
        break;
      }
      if (step.calls.length === 0) break;

      let stepFailed = false;
      let stopAfterStep: EndReason | null = null;
      for (const { cell, args } of step.calls) {
        if (stopAfterStep) {
          finishCell(live, deps.events, cell, 'skipped', 'Not run: the turn was stopped before this code.');
          continue;
        }
        const parsed = parseExecuteArgs(args);
        if (!parsed.ok) {
          finishCell(live, deps.events, cell, 'failed', `Error: ${parsed.error}`);
          stepFailed = true;
          continue;
        }
        cell.language = parsed.language;
        cell.code = parsed.code;
        const decision = await approve(live, deps.events, settings, cell, signal);
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
        const userStopped = await executeCell(live, deps, settings, cell, signal);
        if (userStopped) {
          stopAfterStep = signal.aborted ? 'stopped' : 'awaiting-user';
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
      await deps.conversations.save(live.conv);
      if (stopAfterStep) {
        reason = stopAfterStep;
        break;
      }
      failuresInARow = stepFailed ? failuresInARow + 1 : 0;
      if (stepFailed && failuresInARow >= settings.maxFailedAttempts) {
        addNotice(live, deps.events, 'warning', `${failuresInARow} attempts in a row failed, so the agent stopped to let you decide how to go on.`);
        reason = 'attempts-exhausted';
        break;
      }
    }
  } catch (err) {
    addNotice(live, deps.events, 'error', `The turn failed: ${errorMessage(err)}`);
    reason = 'error';
  }
  live.conv.updatedAt = now();
  await deps.conversations.save(live.conv).catch((err: unknown) => {
    deps.events.emit('error', { conversationId, message: `could not save the conversation: ${errorMessage(err)}`, code: 'save-failed' });
  });
  deps.events.emit('turn.end', { conversationId, reason, usage: live.conv.usage });
}

async function approve(
  live: LiveConversation,
  events: EventBus,
  settings: Settings,
  cell: CellItem,
  signal: AbortSignal,
): Promise<'run' | 'skip' | 'stop'> {
  if (settings.autoRun || live.conv.autoRun) {
    cell.approval = 'auto';
    return 'run';
  }
  cell.status = 'awaiting-approval';
  events.emit('cell.awaiting-approval', { conversationId: live.conv.id, cell });
  const decision = await live.approvals.wait(cell.id, signal);
  if (decision.kind !== 'run') return decision.kind;
  if (decision.code !== null) cell.code = decision.code;
  if (decision.always) live.conv.autoRun = true;
  cell.approval = 'user';
  return 'run';
}

/** Returns true when the user interrupted the run (the turn should not go on by itself). */
async function executeCell(live: LiveConversation, deps: TurnDeps, settings: Settings, cell: CellItem, signal: AbortSignal): Promise<boolean> {
  const started = Date.now();
  let interruptedByUser = false;
  try {
    const result = await runCell(live, cell, { exec: deps.exec, events: deps.events, settings }, signal);
    cell.outputs = result.outputs;
    cell.exitCode = result.exitCode;
    cell.durationMs = result.durationMs;
    cell.limits = result.limits;
    interruptedByUser = result.status === 'interrupted';
    const forModel = interruptedByUser ? `${result.forModel}\n\nThe user interrupted this run.` : result.forModel;
    finishCell(live, deps.events, cell, result.status, forModel);
  } catch (err) {
    cell.durationMs = Date.now() - started;
    finishCell(live, deps.events, cell, 'died', `The run failed inside the app: ${errorMessage(err)}`);
  }
  return interruptedByUser;
}

function finishCell(live: LiveConversation, events: EventBus, cell: CellItem, status: CellItem['status'], forModel: string): void {
  cell.status = status;
  cell.resultForModel = forModel;
  events.emit('cell.done', { conversationId: live.conv.id, cell, status });
}

function flushQueuedMessages(live: LiveConversation, events: EventBus): void {
  for (const item of live.queued.splice(0)) {
    live.conv.items.push(item);
    events.emit('item.added', { conversationId: live.conv.id, item });
  }
}

function addNotice(live: LiveConversation, events: EventBus, level: NoticeItem['level'], text: string): void {
  const item: NoticeItem = { kind: 'notice', id: newId(), level, text, createdAt: now() };
  live.conv.items.push(item);
  events.emit('notice', { conversationId: live.conv.id, item });
}
