// A run's timeout that can be paused: while a person is asked for input, the time they take to
// answer is not the program's run time (docs/exec.md#input). Pauses nest (a runner's question and
// a terminal question may overlap).

export class RunTimer {
  private remaining: number;
  private since = Date.now();
  private handle: NodeJS.Timeout | null = null;
  private pauses = 0;
  private done = false;

  constructor(
    ms: number,
    private readonly onFire: () => void,
  ) {
    this.remaining = ms;
    this.schedule();
  }

  pause(): void {
    if (this.pauses++ > 0 || this.done || !this.handle) return;
    clearTimeout(this.handle);
    this.handle = null;
    this.remaining = Math.max(0, this.remaining - (Date.now() - this.since));
  }

  resume(): void {
    if (this.pauses === 0 || --this.pauses > 0 || this.done) return;
    this.schedule();
  }

  clear(): void {
    this.done = true;
    if (this.handle) clearTimeout(this.handle);
    this.handle = null;
  }

  private schedule(): void {
    this.since = Date.now();
    this.handle = setTimeout(() => {
      this.done = true;
      this.handle = null;
      this.onFire();
    }, this.remaining);
  }
}
