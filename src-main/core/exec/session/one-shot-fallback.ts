import type { Session, SessionOutcome, SessionRun } from './session-types';
import type { SessionTerminal } from '../input/terminal-watch';

// A one-shot session standing in for a runner that could not start (an R without FIFOs on
// Windows, a runner script that fails on an old interpreter). Code still runs, one process per
// cell; every run says so, since the model would otherwise expect variables to carry over.

export class OneShotFallback implements Session {
  constructor(
    private readonly inner: Session,
    private readonly note: string,
  ) {}

  get alive(): boolean {
    return this.inner.alive;
  }

  get diedWhileIdle(): string | null {
    return this.inner.diedWhileIdle;
  }

  run(run: SessionRun): Promise<SessionOutcome> {
    run.output.terminal(`[${this.note}]\r\n`);
    return this.inner.run(run);
  }

  interrupt(): void {
    this.inner.interrupt();
  }

  killChildren(runEnded?: () => boolean): Promise<void> {
    return this.inner.killChildren(runEnded);
  }

  kill(): Promise<void> {
    return this.inner.kill();
  }

  setPaused(paused: boolean): void {
    this.inner.setPaused(paused);
  }

  terminal(): SessionTerminal | null {
    return this.inner.terminal?.() ?? null;
  }

  dispose(): Promise<void> {
    return this.inner.dispose();
  }
}
