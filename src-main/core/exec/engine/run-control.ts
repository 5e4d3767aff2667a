import type { Session } from '../session/session-types';

// Stopping a run, with growing force, until it stops: Ctrl-C; after a grace period, kill every
// process the session started (a shell survives this with its state); after another, kill the
// session itself; and if even that is not reported back, give the run up. Each step happens only
// if the run is still going.

/** 'no-input': the program kept waiting at the terminal for input nobody can give (input/terminal-watch.ts). */
export type StopReason = 'timeout' | 'interrupted' | 'no-input';

/** How long after killing the session its run may take to report back before it is given up. */
const ABANDON_AFTER_KILL_MS = 5000;
const REPEAT_INTERRUPT_MS = 250;

export class RunControl {
  reason: StopReason | null = null;
  /** 0 nothing yet, 1 interrupted, 2 children killed, 3 session killed. */
  level = 0;
  /** Resolves only if the run has to be given up (the session was killed and still said nothing). */
  readonly abandoned: Promise<void>;
  private giveUp: () => void = () => undefined;
  private timers: NodeJS.Timeout[] = [];
  private settled = false;
  /** Called once when stopping begins (the run's open questions are withdrawn then). */
  onStop: (() => void) | null = null;

  constructor(
    private readonly session: Session,
    private readonly graceMs: number,
  ) {
    this.abandoned = new Promise((resolve) => {
      this.giveUp = resolve;
    });
  }

  stop(reason: StopReason): void {
    if (this.settled || this.reason) return;
    this.reason = reason;
    this.level = 1;
    this.onStop?.();
    this.session.interrupt();
    // Like a user pressing Ctrl-C again: a ^C that lands while a shell is still starting the
    // foreground program (or that the code caught) is lost, the next one is not.
    for (let at = REPEAT_INTERRUPT_MS; at < this.graceMs; at += REPEAT_INTERRUPT_MS) {
      this.later(at, () => this.session.interrupt());
    }
    this.later(this.graceMs, () => {
      this.level = 2;
      void this.session.killChildren(() => this.settled).catch(() => undefined);
      this.later(this.graceMs, () => {
        this.level = 3;
        void this.session.kill().catch(() => undefined);
        this.later(ABANDON_AFTER_KILL_MS, () => this.giveUp());
      });
    });
  }

  settle(): void {
    this.settled = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
  }

  private later(ms: number, step: () => void): void {
    this.timers.push(
      setTimeout(() => {
        if (!this.settled) step();
      }, ms),
    );
  }
}
