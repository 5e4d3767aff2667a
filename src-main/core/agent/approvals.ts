/**
 * `unasked`: not run because nobody could be asked (oi -m without a terminal), which the model is told as such.
 * `reason`: why the person said no, when they said (a rejected plan: docs/agent.md#plan-mode).
 */
export type ApprovalDecision =
  { kind: 'run'; code: string | null; always: boolean } | { kind: 'skip'; unasked?: boolean; reason?: string } | { kind: 'stop' };

/** Cells waiting for the user's Run / Skip, keyed by cell id. */
export class ApprovalGate {
  private readonly waiting = new Map<string, (decision: ApprovalDecision) => void>();

  wait(cellId: string, signal: AbortSignal): Promise<ApprovalDecision> {
    return new Promise((resolve) => {
      const onAbort = () => this.decide(cellId, { kind: 'stop' });
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(cellId, (decision) => {
        signal.removeEventListener('abort', onAbort);
        resolve(decision);
      });
      if (signal.aborted) onAbort();
    });
  }

  /** How many cells (or other questions) wait for the person now. */
  get waitingCount(): number {
    return this.waiting.size;
  }

  /** Returns false when nothing waits on that cell (already decided, or never asked). */
  decide(cellId: string, decision: ApprovalDecision): boolean {
    const resolve = this.waiting.get(cellId);
    if (!resolve) return false;
    this.waiting.delete(cellId);
    resolve(decision);
    return true;
  }
}
