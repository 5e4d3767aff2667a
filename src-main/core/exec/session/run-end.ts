import { randomHex } from './random-hex';

// When a run of a persistent session (shell or runner) is over. The session's own end marks (the
// fence in the terminal, a runner's `done`) are only a claim: the code the run guards can print and
// send them too, with the right run tag, since it can read everything its process holds. A claim
// is accepted once main sees from outside that the session's process is back in the wait it makes
// between cells (process/idle-wait.ts). Then two barriers only main can make: a fresh token written
// into the terminal's output after everything the session wrote there, and (runners) the same
// token asked back over the channel, answered after everything the runner sent (a shell's stderr
// terminal stands in for the channel), the terminal's once that is back. A runner whose wait means
// its cell is over (Python) needs no question on the channel: what it sent before it began to wait
// is already in the socket, and main reads it there and then (`drain`). The run ends when both have
// come back, so text and messages the code produced before it really finished are all the run's, and
// the last claim before that point is the one that counts. docs/exec-protocol.md#end-of-a-run.

/** The property key of main's barrier in the terminal, `OSC 633 ; P ; OiEnd=<token> BEL`. */
export const END_BARRIER_KEY = 'OiEnd';

export interface RunEndOptions {
  /** Is the session's process in its between-cells wait? null where that cannot be known (not Linux): claims are trusted. */
  idle: (() => boolean) | null;
  /** Writes text into the terminal's output, behind everything already written there. */
  writeTerminal: (text: string) => Promise<void>;
  /**
   * Reads, synchronously, everything written to the terminal so far and hands it on
   * (PtyProcess.drainOutput): the terminal's barrier without its round trip. false when it could
   * not, and the token is written instead.
   */
  drainTerminal?: () => boolean;
  /** Runners: sends `{type:'sync', token}`, which the runner answers with `synced` from its loop. */
  sync?: (token: string) => void;
  /**
   * Runners whose between-cells wait is reached only once the cell is over: reads, synchronously,
   * everything the runner sent before it began to wait (RunnerChannel.drain); false when it could
   * not, and `sync` asks instead.
   */
  drain?: () => boolean;
  onEnd: () => void;
}

/**
 * A session claims its end just before it goes back to its wait, a few microseconds of its own
 * work; but its message wakes main, which on a busy machine takes the CPU the session was on, so
 * the first check often finds the session not yet there (runnable, not yet blocked). Waiting on a
 * timer then costs a millisecond at least (a quiet machine's whole warm round trip), and spinning on
 * the event loop keeps the session off the CPU it needs. So main naps (a blocking wait, giving the
 * CPU away) and checks again, for up to NAP_BUDGET_MS after a run's first claim only (code forging
 * claims again and again cannot make main nap), before going on to timers. The naps are as short as
 * the kernel's timer allows: asked for 10 µs, one lasts ~80 µs (the timer slack), while the session
 * needs far less than that to get back to its wait once it has a CPU; each look costs ~6 µs
 * (idle-wait.ts). Longer naps (0.2 ms each, before) made the usual case wait for nothing.
 */
const NAP_MS = 0.01;
const NAP_BUDGET_MS = 1.5;
const nap = new Int32Array(new SharedArrayBuffer(4));
/** Timers between later polls of a claim not yet true (ms): quick at first, then steady. */
const POLL_DELAYS = [1, 1, 2, 4, 8, 16, 32, 64];
const POLL_STEADY = 100;

let trustClaims = false;

/**
 * Test-only: end runs on the session's own claim, as before this check existed, so an attack test
 * can show its twin (the same forged end succeeding). Never called by the app.
 */
export function trustRunEndClaimsForTest(on: boolean): void {
  trustClaims = on;
}

export class RunEndCheck {
  private generation = 0;
  /** Claims since the run began: main naps for the first one only. */
  private claims = 0;
  private timer: NodeJS.Timeout | null = null;
  private barrier: { token: string; terminal: boolean; channel: boolean } | null = null;

  constructor(private readonly options: RunEndOptions) {}

  /** The session says the run is over (again: the last claim counts). */
  claim(): void {
    if (this.barrier) return; // the check already passed; its barriers are on their way
    if (trustClaims || !this.options.idle) {
      this.options.onEnd();
      return;
    }
    this.stopPolling();
    this.poll(++this.generation, 0, this.claims++ === 0 ? NAP_BUDGET_MS : 0);
  }

  /** A property sequence from the terminal; true when it was this check's barrier (the caller drops it either way). */
  terminalPiece(key: string, value: string): boolean {
    if (key !== END_BARRIER_KEY || !this.barrier || value !== this.barrier.token) return false;
    this.barrier.terminal = true;
    this.maybeEnd();
    return true;
  }

  synced(token: string): void {
    if (!this.barrier || token !== this.barrier.token || this.barrier.channel) return;
    this.barrier.channel = true;
    this.placeTerminalBarrier(token);
  }

  /** The run ended otherwise (the session died) or a new one begins: forget everything. */
  reset(): void {
    this.stopPolling();
    this.generation++;
    this.claims = 0;
    this.barrier = null;
  }

  private stopPolling(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Looks whether the session is idle; if not, naps for up to `napMs`, then tries again on a timer. */
  private poll(generation: number, attempt: number, napMs: number): void {
    const idle = this.options.idle;
    if (!idle || generation !== this.generation) return;
    let ready = idle();
    if (!ready && napMs > 0) {
      const until = performance.now() + napMs;
      while (!ready && performance.now() < until) {
        Atomics.wait(nap, 0, 0, NAP_MS);
        ready = idle();
      }
    }
    if (generation !== this.generation || this.barrier) return;
    if (!ready) {
      this.timer = setTimeout(() => this.poll(generation, attempt + 1, 0), POLL_DELAYS[attempt] ?? POLL_STEADY);
      return;
    }
    // Made now, after the code finished: nothing that ran in the session has seen it.
    const token = randomHex(16);
    this.barrier = { token, terminal: false, channel: !this.options.sync };
    // The runner is back in its wait, so all it sent before is in the channel: read there and then
    // (the messages it holds are handled before anything later), the channel's barrier is passed
    // without a round trip to the runner.
    if (this.options.sync && this.options.drain?.()) {
      if (this.barrier?.token !== token) return;
      this.barrier.channel = true;
      this.placeTerminalBarrier(token);
      return;
    }
    // A runner's loop waits the same way inside a cell's `await` as between cells, so "idle" can be
    // true while its code still runs; its answer to `sync` comes only once the cell is over. The
    // terminal's token goes in after that answer, so it lands behind everything the cell printed.
    // (Both at once would do for the other runners and shells, but measured on a busy machine the
    // run ended with the runner not yet back in its wait, and the next run then waited longer for it.)
    if (this.options.sync) this.options.sync(token);
    else this.placeTerminalBarrier(token);
  }

  private placeTerminalBarrier(token: string): void {
    // The session is idle (and a runner's channel read, or answered): what it wrote to the terminal
    // is there now, behind the terminal's main side, where the token would have queued behind it.
    // Reading it all here passes the barrier at once, without the two wake-ups of the token's trip.
    if (this.options.drainTerminal?.()) {
      if (this.barrier?.token !== token) return;
      this.barrier.terminal = true;
      this.maybeEnd();
      return;
    }
    this.options.writeTerminal(`\x1b]633;P;${END_BARRIER_KEY}=${token}\x07`).catch(() => {
      // The terminal cannot be written (gone with the session, whose exit ends the run anyway):
      // end on the channel's barrier alone rather than wait for the timeout.
      if (this.barrier?.token !== token) return;
      this.barrier.terminal = true;
      this.maybeEnd();
    });
  }

  private maybeEnd(): void {
    if (!this.barrier?.terminal || !this.barrier.channel) return;
    this.reset();
    this.options.onEnd();
  }
}
