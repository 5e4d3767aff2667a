import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { LimitController } from '../process/limits';
import { killDescendants, killTree } from '../process/process-tree';
import type { Session, SessionOutcome, SessionRun, StartSessionOptions } from '../session/session-types';
import type { SessionTerminal } from '../input/terminal-watch';
import { startNetworkProxy, type NetworkPolicy, type NetworkProxy } from './network-proxy';
import { RELAY_PORT, relayPrograms, withRelay } from './network-relay';
import { childrenOf, findSandboxProcesses, type SandboxProcesses } from './sandbox-processes';
import { planSandbox, type SandboxPlan } from './sandbox-plan';
import type { RunSandbox } from '../engine/types';
import { realOf, wrapInSandbox, type AvailableSandbox } from './sandbox-wrap';

// Starts any kind of session inside the sandbox by wrapping its spawn (through the LimitController
// every session already calls), and gives it a private folder of its own: the session's socket and
// cell files live there, and it is the only temp folder the sandbox can see. With the network off and
// a network policy given, the session's only way out is the app's proxy (network-proxy.ts), reached
// through a relay started inside the sandbox before the program (network-relay.ts).

type Start = (options: StartSessionOptions) => Promise<Session>;

export async function startSandboxedSession(
  start: Start,
  options: StartSessionOptions,
  settings: RunSandbox,
  support: AvailableSandbox,
  network?: NetworkPolicy,
): Promise<Session> {
  const privateDir = await mkdtemp(join(options.tmpRoot, 'oi-sandbox-'));
  const plan = planSandbox({ settings, workspace: options.workspace, privateDir: realOf(privateDir), home: options.env.HOME });
  let proxy: NetworkProxy | null = null;
  try {
    // bubblewrap only: on macOS the profile keeps the network off (docs/sandbox.md).
    if (network && !plan.network && support.tool === 'bubblewrap') {
      proxy = await startNetworkProxy(join(plan.privateDir, 'net.sock'), network);
      plan.proxyPort = RELAY_PORT;
    }
    const relay = proxy ? { socket: proxy.socket, resourcesDir: options.resourcesDir } : null;
    const limits = sandboxedLimits(options.limits, plan, support, options.runtime.support ?? [], relay);
    const session = await start({ ...options, tmpRoot: privateDir, limits });
    const sandboxed = new SandboxedSession(session, options.language.kind, support, privateDir, proxy);
    if (proxy) await sandboxed.noteHelpers();
    return sandboxed;
  } catch (err) {
    await proxy?.close();
    await rm(privateDir, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  }
}

/**
 * The engine's limits, applied to the sandboxed program: on Linux prlimit must target the program
 * (limits are per process and inherited only by children started afterwards), not bubblewrap.
 */
function sandboxedLimits(
  base: LimitController,
  plan: SandboxPlan,
  support: AvailableSandbox,
  programs: readonly string[],
  relay: { socket: string; resourcesDir: string } | null,
): LimitController {
  // The program inside, per bubblewrap process: it lives as long as the session, so it is looked up
  // once rather than by a walk of /proc before every run (six reads, most of a warm run's cost).
  const programs_ = new Map<number, number>();
  return {
    settled(pid, settings) {
      if (support.tool !== 'bubblewrap') return base.settled?.(pid, settings) ?? false;
      const program = programs_.get(pid);
      return program !== undefined && (base.settled?.(program, settings) ?? false);
    },
    async beforeRun(pid, settings) {
      if (support.tool !== 'bubblewrap') return base.beforeRun(pid, settings);
      let program = programs_.get(pid);
      if (program === undefined) {
        const found = await findSandboxProcesses(pid);
        if (found) programs_.set(pid, (program = found.program));
      }
      return base.beforeRun(program ?? pid, settings);
    },
    wrapSpawn(file, args, settings) {
      const command = base.wrapSpawn(file, args, settings);
      if (!relay) return wrapInSandbox(plan, support, command, programs);
      return wrapInSandbox(plan, support, withRelay(command, relay.socket, relay.resourcesDir), [
        ...programs,
        ...relayPrograms(relay.resourcesDir),
      ]);
    },
  };
}

/**
 * A session as the engine knows it, with the two actions that must reach inside the sandbox
 * redirected there: Ctrl-C for runners (a SIGINT to bubblewrap would end the whole sandbox) and
 * killing a run's children while the session itself lives on.
 */
class SandboxedSession implements Session {
  private processes: SandboxProcesses | null = null;
  /** The app's own processes inside (the network relay): kept when a run's children are killed. */
  private helpers = new Set<number>();

  constructor(
    private readonly inner: Session,
    private readonly kind: StartSessionOptions['language']['kind'],
    private readonly support: AvailableSandbox,
    private readonly privateDir: string,
    private readonly proxy: NetworkProxy | null,
  ) {}

  /**
   * Right after the start, before any code ran, the init's only children besides the program are the
   * app's own (the relay the program's wrapper started, adopted by the init when that wrapper exec'd).
   */
  async noteHelpers(): Promise<void> {
    const found = this.support.tool === 'bubblewrap' ? await this.inside() : null;
    if (!found) return;
    for (const pid of await childrenOf(found.init)) if (pid !== found.program) this.helpers.add(pid);
  }

  get alive(): boolean {
    return this.inner.alive;
  }

  get diedWhileIdle(): string | null {
    return this.inner.diedWhileIdle;
  }

  run(run: SessionRun): Promise<SessionOutcome> {
    return this.inner.run(run);
  }

  interrupt(): void {
    // Shells and one-shot programs are interrupted through the terminal (^C reaches the foreground
    // job inside the sandbox directly); runners get SIGINT sent to their process.
    if (this.kind !== 'runner' || this.support.tool !== 'bubblewrap') return this.inner.interrupt();
    void this.inside().then((found) => {
      if (!found) return this.inner.interrupt();
      try {
        process.kill(found.program, 'SIGINT');
      } catch {
        // Gone already: the run ends as died.
      }
    });
  }

  async killChildren(): Promise<void> {
    const found = this.support.tool === 'bubblewrap' ? await this.inside() : null;
    if (!found) return this.inner.killChildren();
    await killDescendants(found.program, { keepLeader: true });
    // Orphans the program left behind were adopted by the namespace's init, not by the program.
    for (const pid of await childrenOf(found.init)) if (pid !== found.program && !this.helpers.has(pid)) await killTree(pid);
  }

  kill(): Promise<void> {
    return this.inner.kill();
  }

  setPaused(paused: boolean): void {
    this.inner.setPaused(paused);
  }

  // The pty is bubblewrap's; the terminal inside is the same device, and its readers are found
  // among bubblewrap's descendants.
  terminal(): SessionTerminal | null {
    return this.inner.terminal?.() ?? null;
  }

  async dispose(): Promise<void> {
    await this.inner.dispose();
    await this.proxy?.close();
    await rm(this.privateDir, { recursive: true, force: true }).catch(() => undefined);
  }

  /** The program and init inside, looked up once: they live as long as the session. */
  private async inside(): Promise<SandboxProcesses | null> {
    if (this.processes) return this.processes;
    const outer = outerPid(this.inner);
    if (outer === null || !this.inner.alive) return null;
    this.processes = await findSandboxProcesses(outer, 500);
    return this.processes;
  }
}

/** Runner and shell sessions expose the pid of the process they started (here: bubblewrap). */
function outerPid(session: Session): number | null {
  const pid: unknown = (session as Partial<Record<'pid', unknown>>).pid;
  return typeof pid === 'number' ? pid : null;
}
