import type { Session } from './session';

// Stopping a run, with growing force, until it stops: Ctrl-C; after a grace period, kill every
// process the session started (a shell survives this with its state); after another, kill the
// session itself. Each step happens only if the run is still going.

export type StopReason = 'timeout' | 'interrupted';

export class RunControl {
  reason: StopReason | null = null;
  /** 0 nothing yet, 1 interrupted, 2 children killed, 3 session killed. */
  level = 0;
  private timers: NodeJS.Timeout[] = [];
  private settled = false;

  constructor(
    private readonly session: Session,
    private readonly graceMs: number,
  ) {}

  stop(reason: StopReason): void {
    if (this.settled || this.reason) return;
    this.reason = reason;
    this.level = 1;
    this.session.interrupt();
    this.timers.push(
      setTimeout(() => {
        if (this.settled) return;
        this.level = 2;
        void this.session.killChildren().catch(() => undefined);
        this.timers.push(
          setTimeout(() => {
            if (this.settled) return;
            this.level = 3;
            void this.session.kill().catch(() => undefined);
          }, this.graceMs),
        );
      }, this.graceMs),
    );
  }

  /** Resolves after the session was killed and still has not reported back: the last resort. */
  abandoned(afterKillMs: number): Promise<void> {
    return new Promise((resolve) => {
      const poll = setInterval(() => {
        if (this.settled) clearInterval(poll);
        else if (this.level === 3) {
          clearInterval(poll);
          this.timers.push(setTimeout(resolve, afterKillMs));
        }
      }, 100);
      this.timers.push(poll);
    });
  }

  settle(): void {
    this.settled = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
  }
}
