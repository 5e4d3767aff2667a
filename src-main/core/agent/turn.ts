import { errorMessage, type ModelChoice, type Settings } from '@contract';
import { classifyFailure, describeFailure } from '../llm/provider-errors';
import type { ErrorMemory } from './call-context';
import { withConversationProfile } from './conversation-profile';
import type { LiveConversation } from './live-conversation';
import { CheckpointWrites } from './checkpoint-writes';
import { callModel } from './model-call';
import { runStepCalls } from './step-calls';
import { finishCell } from './turn-cell';
import type { TurnDeps } from './turn-deps';
import { endTurn, type EndReason } from './turn-end';
import * as hooks from './turn-hooks';
import { journalTurn } from './turn-journal';
import { limitReached, noteUnpricedModel } from './turn-limits';
import { addNotice, flushQueuedMessages } from './turn-notices';

/** How far the turn has gone, across its steps. */
interface TurnProgress {
  modelCalls: number;
  failuresInARow: number;
  errors: ErrorMemory;
  /**
   * The last step's saves and checkpoint lists, still being written while the next call is prepared;
   * the call goes out once they are on disk (model-call.ts). True when a list failed (its cell says so).
   */
  written: Promise<boolean>;
}

/**
 * The agent loop for one user message: call the model, show its code, run what the user approves,
 * give the results back, and go on until the model answers without code, the user stops it, too
 * many runs in a row fail, or the conversation's budget is spent.
 */
export async function runTurn(live: LiveConversation, deps: TurnDeps, signal: AbortSignal): Promise<void> {
  deps.events.emit('turn.start', { conversationId: live.conv.id });
  // The change journal's thread starts while the model is asked, not when the first cell waits for its
  // checkpoint (issue 37: most of the first cell's wait in `oi -m`); the desktop app started it already.
  deps.checkpoints?.prepare();
  const lastSave = journalTurn(live.conv, deps.conversations); // the steps' saves are journalled (turn-journal.ts)
  try {
    const reason = await runSteps(live, deps, signal).catch((err: unknown): EndReason => {
      addNotice(live, deps.events, 'error', `The turn failed: ${errorMessage(err)}`);
      return 'error';
    });
    await endTurn(live, deps, reason, lastSave);
  } finally {
    await lastSave().catch(() => undefined); // once only: a no-op after endTurn's
  }
}

/** The turn's steps, one after the other until one ends the turn. */
async function runSteps(live: LiveConversation, deps: TurnDeps, signal: AbortSignal): Promise<EndReason> {
  withConversationProfile(live, deps.settings(), deps.profiles); // its hooks, before the first are fired
  await hooks.conversationStartHooks(live, deps);
  const progress: TurnProgress = { modelCalls: 0, failuresInARow: 0, errors: { last: null }, written: Promise.resolve(false) };
  try {
    for (;;) {
      const ended = await runStep(live, deps, progress, signal);
      if (ended) return ended;
    }
  } finally {
    await progress.written; // however the turn ends, the last step's writes are on disk first
  }
}

/** One step: a model call and the calls it made. Why the turn ends here, or null to go on. */
async function runStep(live: LiveConversation, deps: TurnDeps, progress: TurnProgress, signal: AbortSignal): Promise<EndReason | null> {
  flushQueuedMessages(live, deps.events);
  if (signal.aborted) return 'stopped';
  const settings = conversationSettings(withConversationProfile(live, deps.settings(), deps.profiles), live.conv.modelChoice);
  const limit = limitReached(live, settings, progress.modelCalls++);
  if (limit) {
    addNotice(live, deps.events, 'warning', limit);
    return 'budget';
  }
  noteUnpricedModel(live, deps.events, settings);
  const provider = await deps.providerFor(settings);
  const step = await callModel(live, deps, settings, provider, signal, progress.written);
  // On disk before anything the reply asked for runs; a cell's checkpoint is taken meanwhile (call-context.ts).
  const recorded = deps.conversations.save(live.conv);
  recorded.catch(() => undefined); // awaited below, whichever way the step goes
  if (step.error || signal.aborted || step.calls.length === 0) await recorded;
  if (step.error) {
    for (const { cell } of step.calls)
      finishCell(live, deps.events, cell, 'interrupted', "The model's reply broke off before this code was complete; it was not run.");
    addNotice(
      live,
      deps.events,
      'error',
      `The model call failed: ${describeFailure(classifyFailure(step.error), provider.kind, provider.endpoint)}`,
    );
    return 'error';
  }
  if (signal.aborted) {
    for (const { cell } of step.calls)
      finishCell(live, deps.events, cell, 'interrupted', 'The user stopped the turn before this code ran.');
    return 'stopped';
  }
  if (step.calls.length === 0) return 'done';
  const behind = new CheckpointWrites();
  const context = { settings, mcpTools: step.mcpTools, signal, errors: progress.errors, recorded, behind };
  const ran = await runStepCalls(live, deps, step.calls, context);
  // The step's last save beside the checkpoint lists still being written; again if one failed (its cell
  // says so). Awaited before the next model call goes out, not before it is prepared.
  progress.written = (async () => {
    await recorded;
    const [, listFailed] = await Promise.all([deps.conversations.save(live.conv), behind.settle()]);
    if (listFailed) await deps.conversations.save(live.conv);
    return listFailed;
  })();
  progress.written.catch(() => undefined); // awaited by the next call, or at the turn's end
  if (ran.stop) return 'stopped';
  progress.failuresInARow = ran.failed ? progress.failuresInARow + 1 : 0;
  if (ran.failed && progress.failuresInARow >= settings.maxFailedAttempts) {
    addNotice(
      live,
      deps.events,
      'warning',
      `${progress.failuresInARow} attempts in a row failed, so the agent stopped to let you decide how to go on.`,
    );
    return 'attempts-exhausted';
  }
  return null;
}

/** The settings with the conversation's own provider, model and endpoint, when it has them. */
export function conversationSettings(settings: Settings, choice: ModelChoice | undefined): Settings {
  return choice ? { ...settings, provider: choice.provider, model: choice.model, baseUrl: choice.baseUrl } : settings;
}
