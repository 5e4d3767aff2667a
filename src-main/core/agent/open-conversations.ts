import type { Conversation } from '@contract';
import type { EventBus } from '../bridge/event-bus';
import { summaryOf, type ConversationStore } from '../conversations/conversation-store';
import { LiveConversation } from './live-conversation';
import { touch } from './conversation-changes';

// The conversations held in memory: one LiveConversation per id, the copy a running turn works on
// and saves. Its own service, built before the engine and the agent, because more than the agent
// reads and changes open conversations: install questions wait on their approvals, and a remote
// kernel's binding is saved in the conversation's file through the open copy (so the file and the
// copy a running turn saves cannot disagree).

export class OpenConversations {
  private readonly live = new Map<string, LiveConversation>();
  /** Conversations being read from disk: a second open waits for the first instead of reading its own copy. */
  private readonly opening = new Map<string, Promise<LiveConversation>>();

  constructor(private readonly deps: { conversations: ConversationStore; events: EventBus }) {}

  /** The open copy, if the conversation is open. */
  get(conversationId: string): LiveConversation | undefined {
    return this.live.get(conversationId);
  }

  all(): LiveConversation[] {
    return [...this.live.values()];
  }

  /** The open copy, reading the conversation's file the first time (then `opened` is called, once). */
  open(conversationId: string, opened?: (live: LiveConversation) => void): Promise<LiveConversation> {
    const live = this.live.get(conversationId);
    if (live) {
      live.lastActive = Date.now();
      return Promise.resolve(live);
    }
    let pending = this.opening.get(conversationId);
    if (!pending) {
      pending = this.deps.conversations.get(conversationId).then((conv) => {
        const fresh = new LiveConversation(conv);
        this.live.set(conversationId, fresh);
        opened?.(fresh);
        return fresh;
      });
      this.opening.set(conversationId, pending);
      void pending.finally(() => this.opening.delete(conversationId)).catch(() => undefined);
    }
    return pending;
  }

  /** The conversation as it is now, including a turn in progress; not opened if it is not. */
  async snapshot(conversationId: string): Promise<Conversation> {
    return this.live.get(conversationId)?.conv ?? this.deps.conversations.get(conversationId);
  }

  /** Changes a conversation outside its items (its remote kernel), through the open copy, and saves it. */
  async update(conversationId: string, change: (conv: Conversation) => void): Promise<void> {
    const live = await this.open(conversationId);
    change(live.conv);
    await this.commit(live);
  }

  /** Saves the open copy and tells the UI; `touched` moves it up the list (its last activity). */
  async commit(live: LiveConversation, touched = false): Promise<void> {
    if (touched) touch(live.conv, this.deps.events);
    const release = live.hold();
    try {
      await this.deps.conversations.save(live.conv);
    } finally {
      release();
    }
    this.deps.events.emit('conversation.updated', { summary: summaryOf(live.conv) });
  }

  /**
   * Lets go of the copies of conversations with nothing going on (LiveConversation.busy) and no
   * activity since `idleSince`, so main's memory does not grow with every conversation opened; the
   * next open reads the file again. Returns their ids.
   */
  release(idleSince: number): string[] {
    const released: string[] = [];
    for (const [id, live] of this.live) {
      if (live.busy || live.lastActive >= idleSince) continue;
      this.live.delete(id);
      released.push(id);
    }
    return released;
  }

  forget(conversationId: string): void {
    this.live.delete(conversationId);
  }
}

export { summaryOf };
