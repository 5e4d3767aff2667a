import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { writeNewFileBeneath } from '../../fs/no-follow-open';
import { basename, join } from 'node:path';
import { KEY_VARIABLE_NAMES } from '../process/env';
import type { LimitController, LimitSettings } from '../process/limits';
import { diedMessage, exitedMessage } from '../output/messages';
import { OscFilter, type TerminalPiece } from '../output/osc-filter';
import { killDescendants, killTree } from '../process/process-tree';
import { PtyProcess, type PtyExit } from '../process/pty-process';
import { closeIdleWait, learnIdleWait, terminalForeground, waitsIdle, type IdleWait } from '../process/idle-wait';
import { RunEndCheck } from '../session/run-end';
import { randomHex } from '../session/random-hex';
import type { Session, SessionOutcome, SessionRun } from '../session/session-types';
import { StderrTerminal } from '../process/stderr-terminal';
import type { SessionTerminal } from '../input/terminal-watch';
import type { ShellFlavor } from './shell-flavor';
import { IDLE_TEXT_MAX, ShellStderr, withStderrFd, type StderrRun } from './shell-stderr';

// A persistent shell (bash or zsh) under a pty. The prompt hook prints the run's fence, with the
// exit code and cwd just before it (see shell-integration.ts for bash, zsh-integration.ts for zsh);
// the fence is a claim the cell's code could print as well, so the run ends only once main sees
// the shell blocked in its own prompt read with the terminal back (session/run-end.ts). The cell's
// stderr has a terminal of its own (process/stderr-terminal.ts), read beside the main one in either
// order (shell-stderr.ts): the run-end barrier goes through both, so all the stderr written before
// the end is the run's.

export interface ShellSessionOptions {
  /** The shell program (absolute path or PATH name). */
  program: string;
  /** Which shell it is: how its integration is installed and a cell line is typed. */
  flavor: ShellFlavor;
  workspace: string;
  env: Record<string, string>;
  tmpRoot: string;
  /** The app's resources folder, holding the integration scripts (resources/shell/). */
  resourcesDir: string;
  limits: LimitController;
  limitSettings: LimitSettings;
  /** How long the shell (and the user's rc files) may take to show its first prompt. */
  bootTimeoutMs?: number;
}

type Phase =
  | { name: 'booting'; nonce: string }
  | { name: 'idle' }
  /** Line typed, start mark not seen yet: anything here is echo. */
  | { name: 'sent'; active: ActiveRun }
  | { name: 'running'; active: ActiveRun }
  | { name: 'dead' };

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `NAME=value` from an OiEnv report; anything else (printed by a program) is ignored. */
function recordEnv(env: Record<string, string | null>, report: string): void {
  const eq = report.indexOf('=');
  const name = eq > 0 ? report.slice(0, eq) : '';
  if (ENV_NAME.test(name)) env[name] = report.slice(eq + 1);
}

interface ActiveRun extends StderrRun {
  nonce: string;
  exitCode: number | null;
  cwd: string | null;
  /** Exported variables the run set (a value) or unset (null), as the shell reported them. */
  env: Record<string, string | null>;
  resolve: (outcome: SessionOutcome) => void;
}

export class ShellSession implements Session {
  private phase: Phase;
  private readonly filter = new OscFilter();
  private idleText = '';
  private lastCwd: string | null;
  private deathNote: string | null = null;
  private interruptOnStart = false;
  private bootWaiter: { resolve: () => void; reject: (err: Error) => void } | null = null;
  /** The shell's prompt read, learnt at start (null where /proc cannot tell: the fence is trusted). */
  private idleWait: IdleWait | null = null;
  private readonly end = new RunEndCheck({
    idle: () => (this.idleWait ? waitsIdle(this.idleWait) : true),
    writeTerminal: (text) => this.pty.writeOutput(text),
    drainTerminal: () => this.pty.drainOutput(),
    // The "channel" barrier of a shell is its stderr terminal: the token comes back through it after
    // all the stderr written before the check passed. (The shell's own OiErrFence is a claim the
    // cell could print early, so it ends nothing.)
    sync: (token) => this.err.barrier(token),
    onEnd: () => {
      if (this.phase.name === 'running' || this.phase.name === 'sent') this.finish(this.phase.active, null);
    },
  });
  private readonly err: ShellStderr;

  private constructor(
    private readonly pty: PtyProcess,
    private readonly dir: string,
    private readonly cellFile: string,
    bootNonce: string,
    private readonly options: ShellSessionOptions,
    private readonly stderr: StderrTerminal | null,
  ) {
    this.phase = { name: 'booting', nonce: bootNonce };
    this.lastCwd = options.workspace;
    this.err = new ShellStderr(
      stderr,
      () => this.phase,
      (token) => this.end.synced(token),
    );
    pty.onData((text) => this.onData(text));
    pty.onExit((exit) => this.onExit(exit));
    stderr?.onData((text) => this.err.onData(text));
  }

  static async start(options: ShellSessionOptions): Promise<ShellSession> {
    const dir = await mkdtemp(join(options.tmpRoot, 'oi-shell-'));
    const cellFile = join(dir, 'cell.sh');
    const bootNonce = randomHex(8);
    const stderr = StderrTerminal.open();
    let pty: PtyProcess;
    try {
      await writeFile(cellFile, '', { mode: 0o600 });
      const shell = await options.flavor.prepare(dir, options.env, options.resourcesDir);
      const wrapped = options.limits.wrapSpawn(options.program, shell.args, options.limitSettings);
      const spawn = stderr ? withStderrFd(wrapped, stderr.path) : wrapped;
      pty = new PtyProcess({
        file: spawn.file,
        args: spawn.args,
        cwd: options.workspace,
        env: {
          ...options.env,
          ...shell.env,
          OI_BOOT_NONCE: bootNonce,
          OI_CELL_FILE: cellFile,
          OI_WORKSPACE: options.workspace,
          OI_STRIP_VARS: KEY_VARIABLE_NAMES.filter((name) => !(name in options.env)).join(' '),
          ...(stderr ? { OI_STDERR_FD: '9' } : {}),
        },
      });
    } catch (err) {
      stderr?.close();
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
    const session = new ShellSession(pty, dir, cellFile, bootNonce, options, stderr);
    // Limits go on while the shell reads its rc files, so the first run does not wait for them.
    const limited = options.limits.beforeRun(pty.pid, options.limitSettings).catch(() => null);
    try {
      await Promise.all([session.waitForBoot(options.bootTimeoutMs ?? 20_000), limited]);
    } catch (err) {
      await session.dispose();
      throw err;
    }
    return session;
  }

  get alive(): boolean {
    return this.phase.name !== 'dead';
  }

  get diedWhileIdle(): string | null {
    return this.deathNote;
  }

  get pid(): number {
    return this.pty.pid;
  }

  private get label(): string {
    return this.options.flavor.label;
  }

  async run(run: SessionRun): Promise<SessionOutcome> {
    // Interrupts from here on are this run's; one left over from a finished run is not.
    this.interruptOnStart = false;
    if (this.phase.name !== 'idle') {
      this.interruptOnStart = false;
      return { status: 'died', exitCode: null, cwd: this.lastCwd, message: `The ${this.label} session is not ready.` };
    }
    const limitProblem = await this.options.limits.beforeRun(this.pty.pid, { ...run.settings });
    if (limitProblem) run.output.terminal(`[${limitProblem}]\r\n`);
    // The folder is the session's private one, which sandboxed code can write: the file is replaced,
    // never written through a link planted in its place (no-follow-open.ts).
    await writeNewFileBeneath(this.options.tmpRoot, [basename(this.dir), basename(this.cellFile)], run.code, {
      replace: true,
      fileMode: 0o600,
    });
    // Output that came between runs (background jobs) belongs to no run yet; it goes to this one.
    // A late Ctrl-C of main's reaching the idle prompt leaves its echo (ETX) and a bare line end:
    // neither is output, both are dropped.
    const idleText = this.idleText.replaceAll('\x03', '');
    if (idleText.trim()) run.output.terminal(idleText);
    this.err.takeIdle(run);
    this.idleText = '';
    // The phase may have changed while the file was written (the shell died meanwhile).
    if (this.phase.name !== 'idle') {
      this.interruptOnStart = false;
      return { status: 'died', exitCode: null, cwd: this.lastCwd, message: this.deathNote ?? `The ${this.label} session died.` };
    }
    const nonce = randomHex(16);
    return new Promise<SessionOutcome>((resolve) => {
      const active: ActiveRun = { run, nonce, exitCode: null, cwd: null, env: {}, resolve, earlyErr: '' };
      this.phase = { name: 'sent', active };
      this.pty.write(this.options.flavor.runLine(nonce));
    });
  }

  interrupt(): void {
    // Not running yet: a ^C now would hit the idle prompt and be lost, or discard the typed line
    // before the shell reads it (and with it the run's fence). Send it when the start mark arrives.
    if (this.phase.name !== 'running') {
      if (this.phase.name !== 'dead') this.interruptOnStart = true;
      return;
    }
    // ^C through the terminal: the line discipline sends SIGINT to the foreground job, as when a
    // user presses Ctrl-C, and the shell abandons the rest of the command line.
    this.pty.write('\x03');
  }

  async killChildren(runEnded?: () => boolean): Promise<void> {
    if (this.phase.name === 'dead') return;
    await killDescendants(this.pty.pid, { keepLeader: true, stopWhen: runEnded });
  }

  async kill(): Promise<void> {
    if (this.phase.name === 'dead') return;
    this.pty.resume('output-cap');
    await killTree(this.pty.pid);
    await Promise.race([this.pty.waitForExit(), new Promise((r) => setTimeout(r, 3000))]);
  }

  async dispose(): Promise<void> {
    if (this.pty.exited === null) await this.kill();
    this.stderr?.close();
    await this.options.limits.dispose?.();
    await rm(this.dir, { recursive: true, force: true }).catch(() => undefined);
  }

  terminal(): SessionTerminal | null {
    if (this.phase.name === 'dead') return null;
    const atRest = (): boolean => this.idleWait !== null && waitsIdle(this.idleWait);
    return { pid: this.pty.pid, ttyPath: this.pty.ttyPath, write: (data) => this.pty.write(data), atRest };
  }

  /** For flow control: the run's spill file is behind. */
  setPaused(paused: boolean): void {
    if (paused) this.pty.pause('output-cap');
    else this.pty.resume('output-cap');
  }

  private waitForBoot(timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.bootWaiter = null;
        const { program, rcHint } = this.options.flavor;
        reject(
          new Error(`${program} did not start within ${Math.round(timeoutMs / 1000)} s (is something in ${rcHint} waiting for input?)`),
        );
      }, timeoutMs);
      this.bootWaiter = {
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      };
    });
  }

  private onData(text: string): void {
    for (const piece of this.filter.push(text)) this.onPiece(piece);
  }

  private onPiece(piece: TerminalPiece): void {
    const phase = this.phase;
    switch (phase.name) {
      case 'booting':
        if (piece.kind === 'property' && piece.key === 'OiFence' && piece.value === phase.nonce) {
          this.phase = { name: 'idle' };
          void this.learnPromptRead().then(() => {
            this.bootWaiter?.resolve();
            this.bootWaiter = null;
          });
        }
        return;
      case 'idle':
        if (piece.kind === 'text' && this.idleText.length < IDLE_TEXT_MAX)
          this.idleText += piece.text.slice(0, IDLE_TEXT_MAX - this.idleText.length);
        return;
      case 'sent':
        if (piece.kind === 'commandStart') {
          this.phase = { name: 'running', active: phase.active };
          this.err.flushEarly(phase.active);
          if (this.interruptOnStart) {
            this.interruptOnStart = false;
            this.pty.write('\x03');
          }
        } else if (piece.kind === 'property' && piece.key === 'OiFence' && piece.value === phase.active.nonce) {
          // The line ended without starting the code (cut by a Ctrl-C before the shell read it).
          this.end.claim();
        } else if (piece.kind === 'property') this.end.terminalPiece(piece.key, piece.value);
        return;
      case 'running': {
        const active = phase.active;
        // The ETX byte is the terminal's echo of main's own Ctrl-C (ECHOCTL off, shell-integration.ts).
        if (piece.kind === 'text') active.run.output.terminal(piece.text.includes('\x03') ? piece.text.replaceAll('\x03', '') : piece.text);
        else if (piece.kind === 'commandEnd') active.exitCode = piece.exitCode;
        else if (piece.kind === 'property' && piece.key === 'Cwd') active.cwd = piece.value;
        else if (piece.kind === 'property' && piece.key === 'OiEnv') recordEnv(active.env, piece.value);
        else if (piece.kind === 'property' && piece.key === 'OiEnvUnset' && ENV_NAME.test(piece.value)) active.env[piece.value] = null;
        else if (piece.kind === 'property' && piece.key === 'OiFence' && piece.value === active.nonce) this.end.claim();
        else if (piece.kind === 'property') this.end.terminalPiece(piece.key, piece.value);
        return;
      }
      case 'dead':
        return;
    }
  }

  /**
   * At start, before any cell: the shell is at its first prompt, holding its terminal; which read it
   * blocks in there (descriptor, buffer, size, stack and code address) is what "back at the prompt"
   * means for every run after. Inside a sandbox the shell is not the pty's own process but the
   * terminal's foreground group.
   */
  private async learnPromptRead(): Promise<void> {
    const shell = terminalForeground(this.pty.pid);
    this.idleWait = shell === null ? null : await learnIdleWait(shell, { args: 3, foreground: true });
    if (this.phase.name === 'dead') closeIdleWait(this.idleWait);
  }

  private finish(active: ActiveRun, exit: PtyExit | null): void {
    this.end.reset();
    this.err.runEnded(active, exit !== null);
    if (exit) {
      this.phase = { name: 'dead' };
      const rest = this.filter.flush();
      if (rest) active.run.output.terminal(rest);
      // `exit N` ends the shell normally; anything else (a signal) is a crash.
      const message = exit.signal ? diedMessage(this.label, exit) : exitedMessage(this.label, exit.exitCode);
      const status = exit.signal ? 'died' : exit.exitCode === 0 ? 'done' : 'failed';
      active.resolve({ status, exitCode: exit.exitCode, cwd: this.lastCwd, message });
      return;
    }
    this.phase = { name: 'idle' };
    this.interruptOnStart = false;
    if (active.cwd) this.lastCwd = active.cwd;
    const exitCode = active.exitCode;
    const env = Object.keys(active.env).length > 0 ? { env: active.env } : {};
    active.resolve({ status: exitCode === 0 ? 'done' : 'failed', exitCode, cwd: this.lastCwd, message: null, ...env });
  }

  private onExit(exit: PtyExit): void {
    closeIdleWait(this.idleWait);
    // The run's last stderr belongs to it (`echo bye >&2; exit 5`), not to nobody.
    this.stderr?.drain();
    const phase = this.phase;
    this.pty.resume('output-cap');
    if (phase.name === 'sent' || phase.name === 'running') {
      this.finish(phase.active, exit);
      return;
    }
    this.phase = { name: 'dead' };
    if (phase.name === 'booting') {
      this.bootWaiter?.reject(
        new Error(
          `${this.options.flavor.program} exited while starting (${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.exitCode}`})`,
        ),
      );
      this.bootWaiter = null;
      return;
    }
    this.deathNote = exit.signal ? `killed by signal ${exit.signal}` : `exited with code ${exit.exitCode}`;
  }
}
