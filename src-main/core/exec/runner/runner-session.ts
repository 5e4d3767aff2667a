import { access, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { LanguageDefinition, Runtime } from '../languages/language';
import { limitsBeforeRun, type LimitController, type LimitSettings } from '../process/limits';
import { diedMessage } from '../output/messages';
import { OscFilter, type TerminalPiece } from '../output/osc-filter';
import { killDescendants, killTree } from '../process/process-tree';
import type { PtyExit, PtyProcess } from '../process/pty-process';
import { closeIdleWait, findByInnerPid, learnIdleWait, waitsIdle, type IdleWait } from '../process/idle-wait';
import { RunEndCheck } from '../session/run-end';
import { randomHex } from '../session/random-hex';
import {
  INPUT_MARKER_KEY,
  OUTPUT_MARKER_KEY,
  STREAM_MARKER_KEY,
  outputMarkerSeq,
  streamMarkerName,
  type InterruptCommand,
  type RunnerMessage,
} from './runner-protocol';
import type { SessionTerminal } from '../input/terminal-watch';
import type { Session, SessionOutcome, SessionRun } from '../session/session-types';
import { openRunnerChannel } from './open-channel';
import type { RunnerChannel } from './runner-channel';
import { refuseStale, RunQuestions } from './runner-questions';
import { spawnRunner } from './runner-spawn';

// A Python, JavaScript, Ruby or R runner (resources/runners/…) under a pty, speaking docs/exec-protocol.md on a side channel.
// The terminal carries only what the code prints; results, rich outputs and cwd come on the channel. A run's end is
// claimed by its fence (in the terminal, with the run's tag) and its `done`; as the cell's code can send both, the run
// ends only once main also sees the runner's main thread back in its wait for the next message (session/run-end.ts).
// Position markers (also tagged) say where in the text each rich output goes.

export interface RunnerSessionOptions {
  language: LanguageDefinition;
  runtime: Runtime;
  workspace: string;
  env: Record<string, string>;
  tmpRoot: string;
  resourcesDir: string;
  limits: LimitController;
  limitSettings: LimitSettings;
  /** How long the runner may take to connect and say hello. */
  bootTimeoutMs?: number;
}

const IDLE_TEXT_MAX = 256 * 1024;

interface ActiveRun {
  run: SessionRun;
  nonce: string;
  fenced: boolean;
  done: { ok: boolean; cwd: string | null } | null;
  signalled?: boolean; // a SIGINT went to the runner for this run
  resolve: (outcome: SessionOutcome) => void;
  /** The cell's input() questions (runner-questions.ts). */
  questions: RunQuestions;
}

export class RunnerSession implements Session {
  private readonly filter = new OscFilter();
  private active: ActiveRun | null = null;
  private idleText = '';
  private state: 'booting' | 'ready' | 'dead' = 'booting';
  private deathNote: string | null = null;
  private lastCwd: string;
  private channel: RunnerChannel | null = null;
  private pty: PtyProcess | null = null;
  private booted: { resolve: () => void; reject: (err: Error) => void } | null = null;
  private version: string | null = null;
  private helloPid: number | null = null;
  private warmUpWaiter: { token: string; done: () => void } | null = null;
  private readonly rawOutput = process.platform !== 'win32';
  private interruptOnStart = false;
  /** The runner's wait for its next message, learnt at start (null where /proc cannot tell: claims are trusted). */
  private idleWait: IdleWait | null = null;
  private readonly end: RunEndCheck;

  private constructor(
    private readonly options: RunnerSessionOptions,
    private readonly dir: string,
  ) {
    this.lastCwd = options.workspace;
    this.end = new RunEndCheck({
      idle: () => (this.idleWait ? waitsIdle(this.idleWait) : true),
      writeTerminal: (text) => this.pty?.writeOutput(text) ?? Promise.reject(new Error('no terminal')),
      drainTerminal: () => this.pty?.drainOutput() ?? false,
      sync: (token) => this.channel?.send({ type: 'sync', token }),
      // Only where the wait was learnt ("idle" seen, not assumed) and means the cell is over; not after
      // a SIGINT another runner thread may hold till main runs code (`sync` does, or it hits the next run).
      drain: options.language.runner?.idleMeansCellOver
        ? () => this.idleWait !== null && !this.active?.signalled && (this.channel?.drain?.() ?? false)
        : undefined,
      onEnd: () => this.finishRun(),
    });
  }

  static async start(options: RunnerSessionOptions): Promise<RunnerSession> {
    const spec = options.language.runner;
    if (!spec) throw new Error(`${options.language.label} has no runner`);
    const script = join(options.resourcesDir, spec.script);
    try {
      await access(script);
    } catch {
      throw new Error(`the ${options.language.label} runner is missing (${script})`);
    }
    const dir = await mkdtemp(join(options.tmpRoot, `oi-${options.language.name}-`));
    const session = new RunnerSession(options, dir);
    try {
      await session.boot(script, spec.args(script));
    } catch (err) {
      await session.dispose();
      throw err;
    }
    return session;
  }

  get alive(): boolean {
    return this.state !== 'dead';
  }

  get diedWhileIdle(): string | null {
    return this.deathNote;
  }

  get runtimeVersion(): string | null {
    return this.version;
  }

  get pid(): number | null {
    return this.pty?.pid ?? null;
  }

  async run(run: SessionRun): Promise<SessionOutcome> {
    // Interrupts from here on are this run's; one left over from a finished run is not.
    this.interruptOnStart = false;
    const pty = this.pty;
    const channel = this.channel;
    if (this.state !== 'ready' || !pty || !channel || this.active) {
      this.interruptOnStart = false;
      return { status: 'died', exitCode: null, cwd: this.lastCwd, message: `The ${this.label} session is not ready.` };
    }
    const pending = limitsBeforeRun(this.options.limits, pty.pid, run.settings); // null: nothing to apply, no turn waited for
    const problem = pending && (await pending);
    if (problem) run.output.terminal(`[${problem}]\r\n`);
    // Output between runs (background jobs) goes to this run; bare line ends (a late Ctrl-C) are dropped.
    if (this.idleText.trim()) run.output.terminal(this.idleText);
    this.idleText = '';
    if (this.state !== 'ready') {
      this.interruptOnStart = false;
      return { status: 'died', exitCode: null, cwd: this.lastCwd, message: this.deathNote ?? `The ${this.label} session died.` };
    }
    // Interrupted before its code went out (an idle runner drops a SIGINT): not sent; ends interrupted.
    if (this.interruptOnStart) {
      this.interruptOnStart = false;
      return { status: 'failed', exitCode: null, cwd: this.lastCwd, message: null };
    }
    const nonce = randomHex(16);
    run.output.bareNewlines = this.rawOutput;
    return new Promise<SessionOutcome>((resolve) => {
      const questions: RunQuestions = new RunQuestions(run, (reply) => {
        if (this.active?.questions === questions) this.channel?.send(reply); // after the run: for no one
      });
      this.active = { run, nonce, fenced: false, done: null, resolve, questions };
      channel.send({ type: 'run', id: run.runId, code: run.code, nonce, executionCount: run.executionCount });
    });
  }

  interrupt(): void {
    if (!this.active) {
      if (this.state === 'ready') this.interruptOnStart = true;
      return;
    }
    // The runner has finished the cell (`done`); only main's end check is left. A SIGINT now would
    // reach the runner between cells: ignored there, or held by R for its next cell.
    if (this.active.done) return;
    // SIGINT to the runner itself: Python turns it into KeyboardInterrupt inside the cell; one that lands before the cell
    // began is dropped there, and RunControl repeats it. An open question gets end-of-input first (R holds interrupts while
    // it waits for a reply). The message names the run and follows its run message: the JavaScript runner acts on it alone
    // but in a cell's synchronous part, which only the signal reaches (docs/exec-protocol.md#interrupt-and-death).
    this.active.questions.withdraw();
    this.channel?.send({ type: 'interrupt', id: this.active.run.runId } satisfies InterruptCommand);
    this.active.signalled = true;
    this.pty?.signal('SIGINT');
  }

  terminal(): SessionTerminal | null {
    const pty = this.pty;
    if (!pty || this.state === 'dead') return null;
    return { pid: pty.pid, ttyPath: pty.ttyPath, write: (data) => pty.write(data) };
  }

  async killChildren(runEnded?: () => boolean): Promise<void> {
    if (this.pty && this.state !== 'dead') await killDescendants(this.pty.pid, { keepLeader: true, stopWhen: runEnded });
  }

  async kill(): Promise<void> {
    const pty = this.pty;
    if (!pty || pty.exited) return;
    pty.resume('output-cap');
    await killTree(pty.pid);
    await Promise.race([pty.waitForExit(), new Promise((r) => setTimeout(r, 3000))]);
  }

  setPaused(paused: boolean): void {
    if (paused) this.pty?.pause('output-cap');
    else this.pty?.resume('output-cap');
  }

  async dispose(): Promise<void> {
    if (this.pty && !this.pty.exited && this.channel?.connected) {
      // Ask nicely first: the runner can flush and exit; kill what is left after a moment.
      this.channel.send({ type: 'shutdown' });
      await Promise.race([this.pty.waitForExit(), new Promise((r) => setTimeout(r, 500))]);
    }
    await this.kill();
    this.channel?.close();
    await this.options.limits.dispose?.();
    await rm(this.dir, { recursive: true, force: true }).catch(() => undefined);
  }

  private get label(): string {
    return this.options.language.name;
  }

  private async boot(script: string, args: string[]): Promise<void> {
    const ready = new Promise<void>((resolve, reject) => {
      this.booted = { resolve, reject };
    });
    // A Unix socket for most runners; R gets FIFOs (see runner-channel.ts).
    this.channel = await openRunnerChannel(this.options.language.runner?.channel ?? 'socket', this.dir, {
      onMessage: (message) => this.onMessage(message),
      onInvalid: (problem) => this.active?.run.output.terminal(`\r\n[runner protocol: ${problem}]\r\n`),
      onClose: () => {
        // The runner's exit follows; if the runner lives on without its channel, it is useless.
        if (this.state !== 'dead' && this.pty && !this.pty.exited) setTimeout(() => void this.kill(), 1000);
      },
    });
    this.pty = await spawnRunner(this.options, this.dir, args, this.channel.env);
    this.pty.onData((text) => {
      for (const piece of this.filter.push(text)) this.onPiece(piece);
    });
    this.pty.onExit((exit) => this.onExit(exit));
    // Limits go on while the runner starts (no user code before the first run message): no wait later.
    const limited = this.options.limits.beforeRun(this.pty.pid, this.options.limitSettings).catch(() => null);
    const timeoutMs = this.options.bootTimeoutMs ?? 20_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the ${this.label} runner did not connect within ${timeoutMs / 1000} s (${script})${this.startupText()}`)),
        timeoutMs,
      );
    });
    try {
      await Promise.race([Promise.all([ready, limited]), timeout]);
    } finally {
      clearTimeout(timer);
    }
    await this.learnIdleWait();
  }

  private warmUp(): Promise<void> {
    return new Promise<void>((resolve) => {
      const token = randomHex(8);
      const timer = setTimeout(() => done(), 5000);
      const done = (): void => {
        clearTimeout(timer);
        this.warmUpWaiter = null;
        resolve();
      };
      this.warmUpWaiter = { token, done };
      if (!this.channel?.send({ type: 'sync', token })) done();
    });
  }

  /**
   * After hello, before any cell: the wait the runner's main thread blocks in for its next message
   * (system call, stack, code address) is "back in its loop" for every run after. hello's pid is the
   * runner's own view (in a sandbox, its pid namespace).
   */
  private async learnIdleWait(): Promise<void> {
    const pty = this.pty;
    if (!pty || this.helloPid === null) return;
    // Once round the loop first: R's JIT compiles the loop on its second call, moving the wait.
    await this.warmUp();
    const runner = await findByInnerPid(pty.pid, this.helloPid);
    this.idleWait = runner === null ? null : await learnIdleWait(runner, { args: 1, foreground: false });
    if (this.state === 'dead') closeIdleWait(this.idleWait);
  }

  private startupText(): string {
    const text = this.idleText.trim();
    return text ? `: ${text.slice(-2000)}` : '';
  }

  private onPiece(piece: TerminalPiece): void {
    const active = this.active;
    if (!active) {
      if (piece.kind === 'text' && this.idleText.length < IDLE_TEXT_MAX)
        this.idleText += piece.text.slice(0, IDLE_TEXT_MAX - this.idleText.length);
      return;
    }
    // Text after a fence is still the run's until its end is confirmed: the fence may be forged.
    if (piece.kind === 'text') active.run.output.terminal(piece.text);
    else if (piece.kind !== 'property') return;
    else if (this.end.terminalPiece(piece.key, piece.value)) return;
    else if (piece.key === STREAM_MARKER_KEY) {
      // Without this run's tag it is program text shaped like a marker: dropped.
      const name = streamMarkerName(piece.value, active.nonce);
      if (name) active.run.output.stream(name);
    } else if (piece.key === INPUT_MARKER_KEY) {
      const seq = outputMarkerSeq(piece.value, active.nonce);
      if (seq !== null) active.questions.marked(seq);
    } else if (piece.key === OUTPUT_MARKER_KEY) {
      // Without this run's nonce it is program text shaped like a marker: dropped like any OSC 633.
      const seq = outputMarkerSeq(piece.value, active.nonce);
      if (seq !== null) active.run.output.marker(seq);
    } else if (piece.key === 'OiFence' && piece.value === active.nonce) {
      active.fenced = true;
      // `done` follows the fence: read the channel now, not when the event loop next wakes.
      if (!active.done) this.channel?.drain?.();
      this.maybeFinish();
    }
  }

  private onMessage(message: RunnerMessage): void {
    if (message.type === 'hello') {
      if (this.state === 'booting') {
        this.state = 'ready';
        this.version = message.version ?? null;
        this.helloPid = message.pid ?? null;
        this.booted?.resolve();
        this.booted = null;
      }
      return;
    }
    const active = this.active;
    if (message.type === 'synced') {
      if (this.warmUpWaiter?.token === message.token) this.warmUpWaiter.done();
      else this.end.synced(message.token);
      return;
    }
    if (!active || message.id !== active.run.runId) return refuseStale(message, (reply) => this.channel?.send(reply));
    if (message.type === 'output') active.run.output.rich(message.output, message.seq);
    else if (message.type === 'update') active.run.output.updateDisplay(message);
    else if (message.type === 'input_request' || message.type === 'computer_request') active.questions.requested(message);
    else if (message.type === 'done') {
      active.done = { ok: message.ok, cwd: message.cwd ?? null };
      // The fence was written before `done`: read the terminal now (handed on in order, here).
      if (!active.fenced) this.pty?.drainOutput();
      this.maybeFinish();
    }
  }

  /**
   * Fence and `done` both in: the run claims its end (again, if the code forged one before), a
   * microtask later: the check reads channel and terminal itself, and must do so after what is being
   * handled now, or the run could end before messages the runner sent earlier are handled.
   */
  private maybeFinish(): void {
    const active = this.active;
    if (!active || !active.fenced || !active.done) return;
    queueMicrotask(() => {
      if (this.active === active) this.end.claim();
    });
  }

  private finishRun(): void {
    const active = this.active;
    if (!active?.done) return;
    this.active = null;
    active.questions.withdraw();
    if (active.done.cwd) this.lastCwd = active.done.cwd;
    active.resolve({ status: active.done.ok ? 'done' : 'failed', exitCode: null, cwd: this.lastCwd, message: null });
  }

  private onExit(exit: PtyExit): void {
    const wasBooting = this.state === 'booting';
    this.state = 'dead';
    closeIdleWait(this.idleWait);
    this.pty?.resume('output-cap');
    const rest = this.filter.flush();
    const active = this.active;
    this.active = null;
    this.end.reset();
    if (active) {
      if (rest) active.run.output.terminal(rest);
      active.resolve({ status: 'died', exitCode: exit.exitCode, cwd: this.lastCwd, message: diedMessage(this.label, exit) });
      return;
    }
    if (wasBooting) {
      const how = exit.signal ? `signal ${exit.signal}` : `exit code ${exit.exitCode}`;
      this.booted?.reject(new Error(`the ${this.label} runner exited while starting (${how})${this.startupText()}`));
      this.booted = null;
      return;
    }
    this.deathNote = exit.signal ? `killed by signal ${exit.signal}` : `exited with code ${exit.exitCode}`;
  }
}
