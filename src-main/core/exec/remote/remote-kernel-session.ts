import { KernelAPI, KernelConnection, type Kernel, type KernelMessage, ServerConnection } from '@jupyterlab/services';
import type { Session, SessionOutcome, SessionRun } from '../session/session-types';
import { explainServerError, type JupyterTarget, RemoteKernelError, safeUrl, serverSettings } from './jupyter-connection';
import { kernelOutput } from './kernel-output';
import { errorMessage } from '@contract';

// A session on a kernel of a remote Jupyter Server, behind the same Session interface as local ones,
// so the engine's queueing, timeouts, output caps and model head + tail apply unchanged.
//
// Connection loss: the library reconnects the WebSocket by itself, with the same client session id,
// so the server replays what the kernel sent meanwhile and a run in progress still completes. When
// the server stops answering for `lostAfterMs`, the run is reported as cut off and the session ends
// without shutting the kernel down: the next session reattaches to the same kernel (its id is kept by
// RemoteKernels) if the server comes back with it, so variables survive a network blip.

export interface RemoteKernelSessionOptions {
  target: JupyterTarget;
  kernelName: string;
  /** The language's name in messages ('python'). */
  label: string;
  /** A kernel this conversation already used; reattached when it still exists. */
  kernelId: string | null;
  /** Remembers (id) or forgets (null) the kernel, so a later session can reattach. */
  onKernel(id: string | null): void;
  /** Asked on dispose: true leaves the kernel running for a later session (the app quits, the binding is saved). */
  keepKernel?: () => boolean;
  startTimeoutMs?: number;
  /** How long the server may stay unreachable during a run before the run is reported lost. */
  lostAfterMs?: number;
  /** Between the steps of stopping a run (Session.stopGraceMs); 10 s unless set. */
  stopGraceMs?: number;
}

const STOP_GRACE_MS = 10_000;

interface ActiveRun {
  run: SessionRun;
  resolve: (outcome: SessionOutcome) => void;
}

type State = 'ready' | 'lost' | 'dead' | 'disposed';

export class RemoteKernelSession implements Session {
  private state: State = 'ready';
  private active: ActiveRun | null = null;
  private note: string | null;
  private deathNote: string | null = null;
  private watchdog: NodeJS.Timeout | null = null;
  /** Interrupt requests still on their way to the server (HTTP): the next cell waits for them. */
  private readonly interrupting = new Set<Promise<void>>();
  private readonly where: string;
  readonly stopGraceMs: number;

  private constructor(
    private readonly options: RemoteKernelSessionOptions,
    private readonly connection: KernelConnection,
    note: string | null,
  ) {
    this.note = note;
    this.where = `the Jupyter server at ${safeUrl(options.target.url)}`;
    this.stopGraceMs = options.stopGraceMs ?? STOP_GRACE_MS;
    connection.connectionStatusChanged.connect((_sender, status) => this.onConnectionStatus(status));
    connection.statusChanged.connect((_sender, status) => this.onKernelStatus(status));
  }

  static async start(options: RemoteKernelSessionOptions): Promise<RemoteKernelSession> {
    const settings = serverSettings(options.target);
    let model: Kernel.IModel | undefined;
    let note: string | null = null;
    let started = false;
    try {
      if (options.kernelId) {
        model = await KernelAPI.getKernelModel(options.kernelId, settings);
        if (model?.execution_state === 'dead') model = undefined;
        note = model
          ? `[reconnected to the remote ${options.label} kernel at ${safeUrl(options.target.url)}; its state is kept]`
          : `[the previous remote ${options.label} kernel is gone from ${safeUrl(options.target.url)} (the server restarted or culled it); a new kernel started, so earlier state is lost]`;
      }
      if (!model) {
        model = await KernelAPI.startNew({ name: options.kernelName }, settings);
        started = true;
      }
    } catch (err) {
      throw explainServerError(err, options.target.url);
    }
    options.onKernel(model.id);
    const connection = new KernelConnection({ model, serverSettings: settings, handleComms: false });
    const timeoutMs = options.startTimeoutMs ?? 60_000;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        connection.info,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(
                new RemoteKernelError(
                  `The remote ${options.label} kernel at ${safeUrl(options.target.url)} did not answer within ${Math.round(timeoutMs / 1000)} s.`,
                ),
              ),
            timeoutMs,
          );
        }),
      ]);
    } catch (err) {
      connection.dispose();
      // A kernel started for nothing would stay on the server, using its memory.
      if (started) {
        options.onKernel(null);
        await KernelAPI.shutdownKernel(model.id, settings).catch(() => undefined);
      }
      throw err instanceof RemoteKernelError ? err : explainServerError(err, options.target.url);
    } finally {
      clearTimeout(timer);
    }
    return new RemoteKernelSession(options, connection, note);
  }

  get alive(): boolean {
    return this.state === 'ready';
  }

  get diedWhileIdle(): string | null {
    return this.deathNote;
  }

  get kernelId(): string {
    return this.connection.id;
  }

  async run(run: SessionRun): Promise<SessionOutcome> {
    if (this.state !== 'ready') return this.died(this.deathNote ?? `The remote ${this.options.label} session is not connected.`);
    if (this.note) {
      run.output.terminal(`${this.note}\r\n`);
      this.note = null;
    }
    const problem = await this.waitForConnection();
    if (problem) {
      this.lose();
      return this.died(problem);
    }
    // An interrupt meant for the previous run that the server has not handled yet would otherwise
    // land in this one (under load an HTTP request can take longer than the rest of that run).
    if (this.interrupting.size) await withTimeout(Promise.all(this.interrupting), 10_000).catch(() => undefined);
    return new Promise<SessionOutcome>((resolve) => {
      this.active = { run, resolve };
      let future: Kernel.IShellFuture<KernelMessage.IExecuteRequestMsg, KernelMessage.IExecuteReplyMsg>;
      try {
        future = this.connection.requestExecute({
          code: run.code,
          silent: false,
          store_history: true,
          allow_stdin: false,
          stop_on_error: true,
        });
      } catch (err) {
        this.finish({
          status: 'died',
          exitCode: null,
          cwd: null,
          message: `Could not send the code to ${this.where}: ${errorMessage(err)}`,
        });
        return;
      }
      future.onIOPub = (msg) => {
        const out = kernelOutput(msg);
        if (out?.kind === 'text') run.output.terminal(out.text);
        else if (out?.kind === 'rich') run.output.rich(out.output);
        else if (out?.kind === 'update') run.output.updateDisplay(out.update);
      };
      future.done.then(
        (reply) => this.finish({ status: reply.content.status === 'ok' ? 'done' : 'failed', exitCode: null, cwd: null, message: null }),
        // Cancelled: the kernel restarted or the connection was disposed; whoever did it has
        // already finished the run with the reason, so this is only a fallback.
        (err: unknown) =>
          this.finish({ status: 'died', exitCode: null, cwd: null, message: `The remote run was cut off: ${errorMessage(err)}` }),
      );
    });
  }

  interrupt(): void {
    void this.sendInterrupt();
  }

  /** There are no child processes to reach from here; a second interrupt is the nearest thing. */
  async killChildren(): Promise<void> {
    await this.sendInterrupt();
  }

  /** Only while a cell runs: a kernel that is idle has nothing to stop, and the next cell must not get it. */
  private sendInterrupt(): Promise<void> {
    if (!this.active) return Promise.resolve();
    const request = this.connection.interrupt().catch(() => undefined);
    this.interrupting.add(request);
    void request.finally(() => this.interrupting.delete(request));
    return request;
  }

  /**
   * The last resort against code that ignores interrupts: shut the kernel down (its state is lost
   * either way, and a restart could hang on the same code); the next run starts a new one.
   */
  async kill(): Promise<void> {
    if (this.state !== 'ready') return;
    this.state = 'dead';
    this.deathNote = 'the remote kernel was shut down to stop a run';
    this.stopWatchdog();
    this.finish(this.died(`The remote ${this.options.label} kernel did not stop and was shut down: its state was lost.`));
    this.options.onKernel(null);
    await withTimeout(this.connection.shutdown(), 10_000).catch(() => undefined);
    this.connection.dispose();
  }

  /** Kernel output arrives over the WebSocket whether or not it is read; nothing to pause. */
  setPaused(): void {}

  /**
   * Ends the session. A kernel this app started is shut down on the server (so a restart really
   * clears state and nothing is left running); one whose connection was lost is left for reattaching,
   * and so is one the app leaves running on quit (keepKernel) for after the restart.
   */
  async dispose(): Promise<void> {
    const was = this.state;
    this.state = 'disposed';
    this.stopWatchdog();
    this.finish({ status: 'died', exitCode: null, cwd: null, message: `The remote ${this.options.label} session was closed.` });
    if (was === 'ready' && !this.options.keepKernel?.()) {
      this.options.onKernel(null);
      await withTimeout(this.connection.shutdown(), 10_000).catch(() => undefined);
    }
    this.connection.dispose();
  }

  private finish(outcome: SessionOutcome): void {
    const active = this.active;
    this.active = null;
    active?.resolve(outcome);
  }

  private died(message: string): SessionOutcome {
    return { status: 'died', exitCode: null, cwd: null, message };
  }

  /** Gives up on this connection but not on the kernel: a new session reattaches to it. */
  private lose(): void {
    if (this.state !== 'ready') return;
    this.state = 'lost';
    this.deathNote ??= `lost the connection to ${this.where}`;
    this.stopWatchdog();
    this.connection.dispose();
  }

  /** Null once connected; a sentence when the server does not come back in time. */
  private async waitForConnection(): Promise<string | null> {
    if (this.connection.connectionStatus === 'connected') return null;
    const deadline = Date.now() + (this.options.lostAfterMs ?? 15_000);
    let lastProblem = 'no answer';
    while (Date.now() < deadline) {
      if (this.state !== 'ready') return this.deathNote ?? 'the session was closed';
      // Read afresh each time: it changes while this loop waits.
      const status = this.connectionStatus();
      if (status === 'connected') return null;
      if (status === 'disconnected') this.connection.reconnect().catch(() => undefined);
      const reachable = await this.serverProblem();
      if (reachable) lastProblem = reachable;
      await new Promise((r) => setTimeout(r, 250));
    }
    return `${lastProblem}. The run was not started; the kernel may still be there, and the next run reconnects to it if the server comes back.`;
  }

  /** Null when the server answers; otherwise why not, as a sentence. */
  private async serverProblem(): Promise<string | null> {
    const settings = serverSettings(this.options.target);
    try {
      const response = await ServerConnection.makeRequest(
        `${settings.baseUrl}api/kernels/${encodeURIComponent(this.connection.id)}`,
        {},
        settings,
      );
      if (response.ok) return null;
      if (response.status === 404) return `The remote kernel no longer exists on ${this.where} (the server restarted or culled it)`;
      throw new ServerConnection.ResponseError(response);
    } catch (err) {
      return explainServerError(err, this.options.target.url).message.replace(/\.$/, '');
    }
  }

  private onConnectionStatus(status: Kernel.ConnectionStatus): void {
    if (this.state !== 'ready') return;
    if (status === 'connected') {
      this.stopWatchdog();
      return;
    }
    if (!this.active || this.watchdog) return;
    // The connection dropped during a run: wait for it to come back, but not forever.
    const started = Date.now();
    const lostAfterMs = this.options.lostAfterMs ?? 15_000;
    this.watchdog = setInterval(() => {
      void (async () => {
        if (this.connection.connectionStatus === 'connected') return this.stopWatchdog();
        if (this.connection.connectionStatus === 'disconnected') this.connection.reconnect().catch(() => undefined);
        const problem = await this.serverProblem();
        if (Date.now() - started < lostAfterMs || this.state !== 'ready' || !this.watchdog) return;
        this.finish({
          status: 'died',
          exitCode: null,
          cwd: null,
          message: `Lost the connection to ${this.where} during the run (${problem ?? 'the connection did not come back'}). The kernel may still be running there; the next run reconnects to it if the server comes back.`,
        });
        this.lose();
      })();
    }, 1000);
  }

  private onKernelStatus(status: KernelMessage.Status): void {
    if (this.state !== 'ready') return;
    if (status === 'dead') {
      this.deathNote = 'the remote kernel died';
      this.finish(this.died(`The remote ${this.options.label} kernel died: its state was lost. A new kernel starts on the next run.`));
      this.state = 'dead';
      this.options.onKernel(null);
      this.stopWatchdog();
      this.connection.dispose();
    } else if (status === 'autorestarting') {
      const message = `The remote ${this.options.label} kernel died and the server restarted it: its state was lost.`;
      if (this.active) this.finish(this.died(message));
      else this.note = `[${message}]`;
    }
  }

  /** Not narrowed by earlier checks: the status changes while callers wait. */
  private connectionStatus(): Kernel.ConnectionStatus {
    return this.connection.connectionStatus;
  }

  private stopWatchdog(): void {
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
