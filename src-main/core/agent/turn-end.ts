import { errorMessage } from '@contract';
import { touch } from './conversation-changes';
import type { LiveConversation } from './live-conversation';
import * as plan from './plan/plan-cell';
import { settleUnfinishedCells } from './turn-cell';
import type { TurnDeps } from './turn-deps';
import * as hooks from './turn-hooks';

/** Why a turn ended, as turn.end says it. */
export type EndReason = 'done' | 'stopped' | 'error' | 'attempts-exhausted' | 'budget' | 'awaiting-user';

/**
 * A turn's last steps, however it ended: no cell left unfinished, a note of open plan steps, the screen
 * let go, the turnEnd hooks, the conversation saved, and then turn.end.
 */
export async function endTurn(
  live: LiveConversation,
  deps: TurnDeps,
  reason: EndReason,
  /** The turn's last save (turn-journal.ts: written whole, the journal closed); else an ordinary save. */
  lastSave: () => Promise<void> = () => deps.conversations.save(live.conv),
): Promise<void> {
  const conversationId = live.conv.id;
  settleUnfinishedCells(live, deps.events);
  plan.noteOpenSteps(live, deps.events);
  deps.computer?.endTurn(conversationId, deps.events);
  // Before turn.end: front ends take turn.end as the turn's last word (the CLI draws its prompt, oi acp
  // answers the prompt request) and must find it over; a hook's notice is saved with the turn.
  await hooks.fireHooks(live, deps, 'turnEnd', null, { reason }).catch(() => null);
  touch(live.conv, deps.events);
  await lastSave().catch((err: unknown) => {
    deps.events.emit('error', { conversationId, message: `could not save the conversation: ${errorMessage(err)}`, code: 'save-failed' });
  });
  deps.events.emit('turn.end', { conversationId, reason, usage: live.conv.usage });
}
