/**
 * A turn's saves between steps, written while the turn goes on (issue 37): the model's reply is
 * saved as its cells start and the step's end as the next model call starts, instead of the turn
 * waiting tens of milliseconds for each write's fsyncs. Every save is still whole and atomic and in
 * order (ConversationStore chains and merges them); the turn's last save, before `turn.end`, is
 * awaited as before, so a finished turn is on disk when it says so. A crash mid-turn loses at most
 * the step being written. A failed save is not lost: the next start (or `settled`) throws it, and the
 * turn reports it as it did when it waited.
 */
export class SavesBehind {
  private last: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | null = null;

  constructor(private readonly save: () => Promise<void>) {}

  /** Starts a save of the conversation as it is now; throws the failure of an earlier one. */
  start(): void {
    this.throwFailure();
    this.last = this.save().catch((error: unknown) => {
      this.failure ??= { error };
    });
  }

  /** Waits for every save started so far; throws the first that failed. */
  async settled(): Promise<void> {
    await this.last;
    this.throwFailure();
  }

  private throwFailure(): void {
    const failed = this.failure;
    this.failure = null;
    if (failed) throw failed.error;
  }
}
