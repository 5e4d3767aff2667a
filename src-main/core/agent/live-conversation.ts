import type { Conversation, UserItem } from '@contract';
import { ApprovalGate } from './approvals';

/** A conversation held in memory while it is open, with the state of its running turn. */
export class LiveConversation {
  readonly approvals = new ApprovalGate();
  /** Set while a turn runs. */
  turn: { controller: AbortController; done: Promise<void> } | null = null;
  /** Messages the user wrote while a turn ran; they join the history at the next step. */
  readonly queued: UserItem[] = [];
  /** Aborts the run in progress (per-cell stop). */
  runController: AbortController | null = null;
  runningCellId: string | null = null;

  constructor(public conv: Conversation) {}
}
