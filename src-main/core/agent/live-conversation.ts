import type { Conversation, UserItem } from '@contract';
import { ApprovalGate } from './approvals';
import { InputQuestions } from './input-questions';

/** A conversation held in memory while it is open, with the state of its running turn. */
export class LiveConversation {
  readonly approvals = new ApprovalGate();
  /** Questions the running cell's program asks the person. */
  readonly inputs = new InputQuestions();
  /** Set while a turn runs. */
  turn: { controller: AbortController; done: Promise<void> } | null = null;
  /** Set while a message that starts a turn is being saved, before the turn exists. */
  starting = false;
  /** Messages the user wrote while a turn ran; they join the history at the next step. */
  readonly queued: UserItem[] = [];
  /** Aborts the run in progress (per-cell stop). */
  runController: AbortController | null = null;
  runningCellId: string | null = null;
  /** How much history fitting the user has been told about, so the notice is not repeated every call. */
  fitNoticed = { droppedTurns: 0, trimmedOutputs: 0, trimmedMessages: 0 };
  /** Whether the user was told the model's price is unknown (so the budget cannot count it). */
  priceWarned = false;

  constructor(public conv: Conversation) {}
}
