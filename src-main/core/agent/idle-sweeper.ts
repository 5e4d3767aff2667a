import type { Settings } from '@contract';
import type { ExecService } from '../exec';
import type { OpenConversations } from './open-conversations';

// Conversations the person is not using give back what they hold (docs/exec.md#idle-sessions): after
// `exec.sessionIdleMs` without a run their sessions end, with the runner, shell and kernel processes,
// and their open copies in main are released (the next open reads the file). A conversation with a
// turn going on, a cell running, or a question waiting for the person is never touched, however long
// it has waited. 0 turns it off.

export interface IdleSweeperDeps {
  exec: Pick<ExecService, 'endIdle'>;
  open: OpenConversations;
  settings: () => Settings;
  /** Now, as Date.now() counts; a test moves it to see what a sweep much later would do. */
  clock?: () => number;
}

/** The longest wait between two looks, so a lowered setting takes effect within a minute. */
const MAX_TICK_MS = 60_000;
const MIN_TICK_MS = 100;

export class IdleSweeper {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private sweeping: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: IdleSweeperDeps) {}

  /** Looks every quarter of the idle time (between 0.1 s and a minute), on a timer that never keeps the process alive. */
  start(): void {
    if (this.stopped || this.timer) return;
    const idleMs = this.deps.settings().exec.sessionIdleMs;
    const tick = idleMs > 0 ? Math.min(MAX_TICK_MS, Math.max(MIN_TICK_MS, idleMs / 4)) : MAX_TICK_MS;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.sweep()
        .catch(() => undefined)
        .finally(() => this.start());
    }, tick);
    this.timer.unref();
  }

  /**
   * Ends the sessions of conversations idle for the set time and releases their open copies.
   * `now` defaults to the clock; one sweep at a time.
   */
  sweep(now = (this.deps.clock ?? Date.now)()): Promise<{ ended: string[]; released: string[] }> {
    const run = this.sweeping.then(async () => {
      const idleMs = this.deps.settings().exec.sessionIdleMs;
      if (idleMs <= 0 || this.stopped) return { ended: [], released: [] };
      const inUse = (conversationId: string): boolean => this.deps.open.get(conversationId)?.busy ?? false;
      const ended = await this.deps.exec.endIdle(idleMs, inUse, now);
      return { ended, released: this.deps.open.release(now - idleMs) };
    });
    this.sweeping = run.catch(() => undefined);
    return run;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
