/**
 * At most `size` holders at once; the others wait their turn in order. A wait given up (its signal
 * aborted: the turn stopped) returns null and takes no slot.
 */
export class Slots {
  private free: number;
  private readonly waiting: Array<(release: (() => void) | null) => void> = [];

  constructor(size: number) {
    this.free = Math.max(1, size);
  }

  take(signal: AbortSignal): Promise<(() => void) | null> {
    if (signal.aborted) return Promise.resolve(null);
    if (this.free > 0) return Promise.resolve(this.grant());
    return new Promise((resolve) => {
      const wake = (release: (() => void) | null) => {
        signal.removeEventListener('abort', onAbort);
        resolve(release);
      };
      const onAbort = () => {
        const at = this.waiting.indexOf(wake);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve(null);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(wake);
    });
  }

  private grant(): () => void {
    this.free--;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.free++;
      const next = this.waiting.shift();
      if (next) next(this.grant());
    };
  }
}
