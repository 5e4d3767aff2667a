import type { RunTrigger, Schedule } from '@contract';
import { dueBetween, isTimed, LATE_AFTER_MS, nextDue } from './schedule-times';
import type { ScheduleStore } from './schedule-store';

// The app's own scheduler, for tasks no OS scheduler runs (no systemd user manager, or the person's
// choice): it runs while the desktop app or browser mode is open. Each run is `oi schedule run`, as
// the OS schedulers start it, so a run is the same whoever starts it. A time that passed while the app
// was closed (or the machine slept, so the timer fired late) is caught up once — one run for all the
// times missed, marked "missed" — as systemd's Persistent=true and Task Scheduler's StartWhenAvailable do.

/** The clock, injected so that tests run days of schedule in a moment (test/integration/schedules). */
export interface SchedulerClock {
  now(): Date;
  /** Calls `fire` once `ms` have passed; returns a cancel. */
  setTimer(ms: number, fire: () => void): () => void;
}

export const systemClock: SchedulerClock = {
  now: () => new Date(),
  setTimer: (ms, fire) => {
    const timer = setTimeout(fire, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/** The store is read again at least this often, for tasks `oi schedule add` made meanwhile. */
const RECHECK_MS = 60_000;

export interface InAppSchedulerDeps {
  store: ScheduleStore;
  clock: SchedulerClock;
  /** Starts one run (`oi schedule run`) and resolves when it has ended; `file` is a folder trigger's new file. */
  launch(schedule: Schedule, trigger: RunTrigger, dueAt: Date | null, file?: string): Promise<void>;
  log(line: string): void;
  /** Told every task at each look at the store (the folder triggers follow it). */
  seen?(schedules: Schedule[]): Promise<void>;
}

export class InAppScheduler {
  private readonly checkedUntil = new Map<string, Date>();
  private readonly running = new Map<string, Promise<void>>();
  private cancelTimer: (() => void) | null = null;
  private stopped = false;
  private checking: Promise<void> | null = null;

  constructor(private readonly deps: InAppSchedulerDeps) {}

  /** Looks at every task once (catching up what was missed), then keeps a timer for the next one due. */
  start(): Promise<void> {
    return this.check();
  }

  stop(): void {
    this.stopped = true;
    this.cancelTimer?.();
  }

  /** The runs under way, for closing the app (and for tests). */
  runs(): Promise<void>[] {
    return [...this.running.values()];
  }

  /** Starts a task now unless a run of it is under way (the webhook, a new file, a person). */
  runNow(schedule: Schedule, trigger: RunTrigger, file?: string): boolean {
    if (this.running.has(schedule.id)) return false;
    this.begin(schedule, trigger, null, file);
    return true;
  }

  check(): Promise<void> {
    // One check at a time: a timer firing during a slow store read waits for it.
    this.checking ??= this.checkOnce().finally(() => (this.checking = null));
    return this.checking;
  }

  private async checkOnce(): Promise<void> {
    if (this.stopped) return;
    const now = this.deps.clock.now();
    let schedules: Schedule[] = [];
    try {
      const all = await this.deps.store.list();
      await this.deps.seen?.(all);
      schedules = all.filter((s) => s.runner === 'in-app' && isTimed(s.when));
    } catch (err) {
      this.deps.log(`scheduled tasks: ${err instanceof Error ? err.message : String(err)}`);
    }
    const runs = await this.deps.store.runs().catch(() => []);
    for (const schedule of schedules) {
      let since = this.checkedUntil.get(schedule.id);
      if (!since) {
        // First look at this task in this process: from the time its last run served, else its creation.
        const last = runs.filter((r) => r.scheduleId === schedule.id && (r.trigger === 'time' || r.trigger === 'missed')).at(-1);
        since = new Date(last ? (last.dueAt ?? last.startedAt) : schedule.createdAt);
      }
      this.checkedUntil.set(schedule.id, now);
      const { count, latest } = dueBetween(schedule.when, since, now);
      if (!latest || this.running.has(schedule.id)) continue;
      const missed = now.getTime() - latest.getTime() > LATE_AFTER_MS;
      if (missed)
        this.deps.log(
          `${schedule.name}: ${count === 1 ? 'a run was' : `${count} runs were`} missed while the app was closed or the machine slept; running it once now`,
        );
      this.begin(schedule, missed ? 'missed' : 'time', latest);
    }
    this.arm(schedules, now);
  }

  private begin(schedule: Schedule, trigger: RunTrigger, dueAt: Date | null, file?: string): void {
    const run = this.deps
      .launch(schedule, trigger, dueAt, file)
      .catch((err: unknown) =>
        this.deps.log(`${schedule.name}: the run could not start: ${err instanceof Error ? err.message : String(err)}`),
      )
      .finally(() => this.running.delete(schedule.id));
    this.running.set(schedule.id, run);
  }

  private arm(schedules: Schedule[], now: Date): void {
    this.cancelTimer?.();
    if (this.stopped) return;
    const next = schedules.map((s) => nextDue(s.when, now)).filter((d): d is Date => d !== null);
    const soonest = Math.min(RECHECK_MS, ...next.map((d) => d.getTime() - now.getTime()));
    this.cancelTimer = this.deps.clock.setTimer(Math.max(0, soonest), () => void this.check());
  }
}
