import type { HooksConfig } from '@contract';
import type { Conversation, UserItem } from '@contract';
import { ApprovalGate } from './approvals';
import { InputQuestions } from './input-questions';
import type { SubagentScope } from './subagents/subagent-scope';

/** A conversation held in memory while it is open, with the state of its running turn. */
/** What the profile sets that is not a field of Settings the turn passes along. */
export interface BoundProfile {
  name: string;
  /** The skills enabled under it (by name), or null for all. */
  skills: readonly string[] | null;
  /** Its hooks in place of Settings' (hooks.json still applies), or null for Settings'. */
  hooks: HooksConfig | null;
}

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
  /** Set on a sub-agent's conversation: its parent's budget, its limits (docs/agent.md#sub-agents). */
  subagent: SubagentScope | null = null;
  /** Sub-agents of this conversation running now: its own cells then wait their turn on the workspace too. */
  subagentsRunning = 0;
  /** What the conversation's profile sets beyond Settings' fields, as read at the turn's start (conversation-profile.ts). */
  profile: BoundProfile | null = null;

  /** Work holding this copy across an await without a turn (a save, a re-run, a rewind); see hold(). */
  private holds = 0;
  /** When this copy was last opened, saved or let go (Date.now()); an idle sweep releases it after the idle time. */
  lastActive = Date.now();

  constructor(public conv: Conversation) {}

  /**
   * Keeps the copy open until the returned function is called: work that reads or changes it across
   * an await must hold it, or an idle sweep could release it and a later open read the file anew,
   * leaving two copies that disagree.
   */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      this.lastActive = Date.now();
    };
  }

  /** Whether anything is going on here: a turn, a question waiting for the person, a cell running, held work. */
  get busy(): boolean {
    return (
      this.turn !== null ||
      this.starting ||
      this.queued.length > 0 ||
      this.runningCellId !== null ||
      this.approvals.waitingCount > 0 ||
      this.inputs.openCount > 0 ||
      this.holds > 0
    );
  }
}
