import type { Conversation } from '@contract';
import { ConversationJournal } from '../conversations/conversation-journal';
import type { ConversationStore } from '../conversations/conversation-store';

/**
 * A turn's saves go through the conversation's journal (conversation-journal.ts, issue 37): the
 * first is written whole, each later one appends what the step changed (its reply, its cells) and
 * fdatasyncs it, so a save stays on disk before it resolves, crash-safe as before, without a whole
 * atomic write of the conversation two times a step. The file is written whole behind the turn every
 * few dozen saves, and at the turn's end, which removes the journal (docs/agent.md#saving).
 *
 * Returns the turn's last save: the conversation written whole and the journal closed. A journal
 * already open (oi mcp's) is left to its owner, and the last save is an ordinary one.
 */
export function journalTurn(conv: Conversation, store: ConversationStore): () => Promise<void> {
  if (store.journalFor(conv.id)) return () => store.save(conv);
  const journal = new ConversationJournal(store, conv);
  let closed: Promise<void> | null = null;
  return () => (closed ??= journal.close());
}
