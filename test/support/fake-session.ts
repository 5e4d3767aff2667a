import { defaultSettings, type RunLimits } from '@contract';
import type { Runtime, Session, SessionOutcome, SessionRoute, SessionRouter, SessionRun } from '../../src-main/core/exec';

// A session without a process, for testing what the engine does around sessions (slots, queueing,
// timeouts, result text) where a real process would only add time and noise. Each run stays pending
// until the test ends it; the test waits for runs to arrive instead of sleeping.

export interface PendingRun {
  run: SessionRun;
  /** Ends the run; the default is a clean `done`. */
  finish(outcome?: Partial<SessionOutcome>): void;
  /** Settles when the engine has the run's result in hand (or the run was ended another way). */
  readonly ended: Promise<SessionOutcome>;
}

export interface FakeSessionOptions {
  /** What an interrupt does: end the run as interrupted (default), or nothing (code that ignores Ctrl-C). */
  onInterrupt?: 'stop' | 'ignore';
  /** What killing the children does: end the run (as failed, like a shell whose command was killed), or nothing (default). */
  onKillChildren?: 'stop' | 'ignore';
}

/** Things arriving in order, each awaitable by position before it has come. */
class Arrivals<T> {
  readonly items: T[] = [];
  private waiters: Array<{ index: number; resolve: (item: T) => void }> = [];

  add(item: T): void {
    this.items.push(item);
    for (const waiter of this.waiters.filter((w) => w.index < this.items.length)) waiter.resolve(this.items[waiter.index]!);
    this.waiters = this.waiters.filter((w) => w.index >= this.items.length);
  }

  nth(index: number): Promise<T> {
    const item = this.items[index];
    if (item !== undefined) return Promise.resolve(item);
    return new Promise((resolve) => this.waiters.push({ index, resolve }));
  }
}

export class FakeSession implements Session {
  alive = true;
  diedWhileIdle: string | null = null;
  interrupts = 0;
  childKills = 0;
  kills = 0;
  disposed = false;
  paused: boolean[] = [];
  private readonly arrived = new Arrivals<PendingRun>();
  /** Every run the session was given, in order. */
  readonly runs: readonly PendingRun[] = this.arrived.items;
  /** Most runs that were going on at once (the engine must never give a session two). */
  maxConcurrent = 0;
  private running = 0;
  private current: PendingRun | null = null;

  constructor(private readonly options: FakeSessionOptions = {}) {}

  run(run: SessionRun): Promise<SessionOutcome> {
    let settle: (outcome: SessionOutcome) => void = () => undefined;
    const ended = new Promise<SessionOutcome>((resolve) => {
      settle = resolve;
    });
    let done = false;
    const pending: PendingRun = {
      run,
      ended,
      finish: (outcome = {}) => {
        if (done) return;
        done = true;
        this.running--;
        if (this.current === pending) this.current = null;
        settle({ status: 'done', exitCode: 0, cwd: null, message: null, ...outcome });
      },
    };
    this.running++;
    this.maxConcurrent = Math.max(this.maxConcurrent, this.running);
    this.current = pending;
    this.arrived.add(pending);
    return ended;
  }

  /** The n-th run (0-based) once the engine has handed it to this session. */
  nthRun(index: number): Promise<PendingRun> {
    return this.arrived.nth(index);
  }

  interrupt(): void {
    this.interrupts++;
    if (this.options.onInterrupt !== 'ignore') this.current?.finish({ status: 'interrupted', exitCode: 130 });
  }

  async killChildren(): Promise<void> {
    this.childKills++;
    if (this.options.onKillChildren === 'stop') this.current?.finish({ status: 'failed', exitCode: 137 });
  }

  async kill(): Promise<void> {
    this.kills++;
    this.alive = false;
    this.current?.finish({ status: 'died', exitCode: null, message: 'The fake session was killed.' });
  }

  setPaused(paused: boolean): void {
    this.paused.push(paused);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.alive = false;
    this.current?.finish({ status: 'died', exitCode: null });
  }
}

export const FAKE_RUNTIME: Runtime = { command: '/fake/runtime', version: '1.0' };

/** A route whose sessions come from `start`; it provides its own runtime, so nothing is looked up on PATH. */
export function fakeRoute(start: () => Promise<Session>, overrides: Partial<SessionRoute> = {}): SessionRoute {
  return {
    key: 'fake',
    label: 'in the fake',
    refusal: null,
    runtime: FAKE_RUNTIME,
    limits: (base: RunLimits) => base,
    start,
    ...overrides,
  };
}

/**
 * A router that sends every run to `route()` (called per run, so a test can switch routes between
 * runs) and keeps each cell in the language it named.
 */
export function fakeRouter(route: () => SessionRoute): SessionRouter {
  return {
    choose: async (_request, language) => ({ language, note: null }),
    route: async () => route(),
  };
}

/** Sessions handed out in order, so a test can see which session each run went to. */
export class FakeSessions {
  private readonly arrived = new Arrivals<FakeSession>();
  readonly started: readonly FakeSession[] = this.arrived.items;

  constructor(private readonly options: FakeSessionOptions = {}) {}

  readonly start = async (): Promise<Session> => {
    const session = new FakeSession(this.options);
    this.arrived.add(session);
    return session;
  };

  /** The n-th session started (0-based), once it is. */
  nth(index: number): Promise<FakeSession> {
    return this.arrived.nth(index);
  }
}

/** Exec settings for runs against fake sessions: long timeouts unless a test sets its own. */
export const fakeExecSettings = { ...defaultSettings.exec, timeoutMs: 60_000 };
