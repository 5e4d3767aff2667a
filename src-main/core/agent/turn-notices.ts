import type { NoticeItem } from '@contract';
import type { EventBus } from '../bridge/event-bus';
import type { FitResult } from './history-fit';
import { newId, now } from './ids';
import type { LiveConversation } from './live-conversation';
import { addItem, addNoticeItem } from './conversation-changes';

// Notices a turn adds to its conversation (the UI and the CLI show them; the model never reads them).

export function addNotice(live: LiveConversation, events: EventBus, level: NoticeItem['level'], text: string): void {
  const item: NoticeItem = { kind: 'notice', id: newId(), level, text, createdAt: now() };
  addNoticeItem(live.conv, events, item);
}

/** Tells the user once each time fitting leaves out more than it did before. */
export function noteFit(live: LiveConversation, events: EventBus, fit: FitResult, contextWindow: number): void {
  const before = live.fitNoticed;
  const counts = ['droppedTurns', 'trimmedOutputs', 'trimmedMessages'] as const;
  if (counts.every((key) => fit[key] <= before[key])) return;
  live.fitNoticed = {
    droppedTurns: Math.max(fit.droppedTurns, before.droppedTurns),
    trimmedOutputs: Math.max(fit.trimmedOutputs, before.trimmedOutputs),
    trimmedMessages: Math.max(fit.trimmedMessages, before.trimmedMessages),
  };
  const parts: string[] = [];
  if (fit.trimmedOutputs) parts.push(`${fit.trimmedOutputs} long output${fit.trimmedOutputs === 1 ? ' was' : 's were'} shortened`);
  if (fit.trimmedMessages)
    parts.push(`the middle of ${fit.trimmedMessages === 1 ? 'a message' : `${fit.trimmedMessages} messages`} too long for it was left out`);
  if (fit.droppedTurns) parts.push(`the ${fit.droppedTurns} oldest exchange${fit.droppedTurns === 1 ? ' was' : 's were'} left out`);
  // How much, in tokens: the user sees what the model lost, not only that it lost something.
  const cut = Math.max(0, fit.fullTokens - fit.tokens);
  addNotice(
    live,
    events,
    'info',
    `History trimmed to fit the model's ${contextWindow.toLocaleString('en-US')}-token context window: ${parts.join(' and ')} (about ${cut.toLocaleString('en-US')} of ${fit.fullTokens.toLocaleString('en-US')} tokens). They stay in this conversation; only the model no longer sees them.`,
  );
}

/** Messages the person sent while the turn ran, added to the conversation before the next model call. */
export function flushQueuedMessages(live: LiveConversation, events: EventBus): void {
  for (const item of live.queued.splice(0)) {
    addItem(live.conv, events, item);
  }
}
