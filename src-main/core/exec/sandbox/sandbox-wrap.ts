import { realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxSettings } from '@contract';
import { bubblewrapArgs } from './bubblewrap-args';
import type { Command } from './command';
import { startNetworkProxy, type NetworkPolicy, type NetworkProxy } from './network-proxy';
import { RELAY_PORT, relayPrograms, withRelay } from './network-relay';
import { planSandbox, readablePathsFor, type SandboxPlan } from './sandbox-plan';
import type { SandboxSupport } from './sandbox-support';
import { seatbeltProfile } from './seatbelt-profile';
import { isInside } from './writable-zones';

// A command line turned into the same command run inside the sandbox, for sessions
// (sandboxed-session.ts) and for the one-off programs the app runs for a sandboxed conversation:
// probes of an interpreter the code could have written, package installers (sandbox-probing.ts,
// auto-install/). One plan, one set of rules for all of them.

export type AvailableSandbox = Extract<SandboxSupport, { available: true }>;

export type { Command } from './command';

/** `command` under the plan: bubblewrap's arguments, or a Seatbelt profile for sandbox-exec. */
export function wrapInSandbox(plan: SandboxPlan, support: AvailableSandbox, command: Command, programs: readonly string[] = []): Command {
  const readable = readablePathsFor(plan, command.file, command.args, programs);
  if (support.tool === 'bubblewrap') return { file: support.path, args: bubblewrapArgs(plan, command, readable) };
  const real = { ...plan, workspace: realOf(plan.workspace), extra: plan.extra.map((e) => ({ ...e, path: realOf(e.path) })) };
  const profile = seatbeltProfile(real, readable.map(realOf));
  return { file: support.path, args: ['-p', profile, '/usr/bin/env', `TMPDIR=${plan.privateDir}`, command.file, ...command.args] };
}

export interface OneOffOptions {
  support: AvailableSandbox;
  settings: SandboxSettings;
  workspace: string;
  /** Where the private folder goes (the engine's temp root). */
  tmpRoot: string;
  home?: string;
  /** Network for this command only (an approved install downloads); default: the conversation's setting. */
  network?: boolean;
  /**
   * Run in `folder` instead of the workspace, which is then hidden: the program sees nothing the
   * conversation's code wrote (an npm install into a fresh folder, never reading the workspace's
   * .npmrc or package.json).
   */
  instead?: { folder: string };
  /** More folders, read-only (`/path`) or read-write (`/path:rw`), as in settings.sandbox.extraPaths. */
  extraPaths?: string[];
  /** Programs the app found itself that the command needs to see (Runtime.support). */
  programs?: readonly string[];
  /**
   * With the network off (bubblewrap only): the command's way out is the app's proxy, deciding each
   * destination by `policy` (network-proxy.ts), reached through the relay started before it, as a
   * sandboxed session's is. `bypass` replaces the loopback names of NO_PROXY.
   */
  proxy?: { policy: NetworkPolicy; resourcesDir: string; bypass?: string[] };
}

export interface OneOff {
  command: Command;
  /** Where the command runs (the folder bubblewrap changes to). */
  cwd: string;
  /** What its network is: all of it, none, or the proxy (`OneOffOptions.proxy`). */
  network: 'open' | 'none' | 'proxy';
  dispose(): Promise<void>;
}

/** A command ready to run once inside the conversation's sandbox, with a private folder of its own. */
export async function oneOffSandbox(options: OneOffOptions, command: Command): Promise<OneOff> {
  const privateDir = await mkdtemp(join(options.tmpRoot, 'oi-sandbox-'));
  const settings: SandboxSettings = {
    ...options.settings,
    allowNetwork: options.network ?? options.settings.allowNetwork,
    extraPaths: [...options.settings.extraPaths, ...(options.extraPaths ?? [])],
  };
  const workspace = options.instead?.folder ?? options.workspace;
  // No terminal: a one-off is asked or run by the app, often with the app's own terminal (oi's).
  const plan = { ...planSandbox({ settings, workspace, privateDir: realOf(privateDir), home: options.home }), newSession: true };
  if (options.instead) hideToo(plan, options.workspace);
  let proxy: NetworkProxy | null = null;
  let wrapped = command;
  let programs = options.programs ?? [];
  if (options.proxy && !plan.network && options.support.tool === 'bubblewrap') {
    proxy = await startNetworkProxy(join(plan.privateDir, 'net.sock'), options.proxy.policy).catch(async (err: unknown) => {
      await rm(privateDir, { recursive: true, force: true }).catch(() => undefined);
      throw err;
    });
    plan.proxyPort = RELAY_PORT;
    if (options.proxy.bypass) plan.proxyBypass = options.proxy.bypass;
    wrapped = withRelay(command, proxy.socket, options.proxy.resourcesDir);
    programs = [...programs, ...relayPrograms(options.proxy.resourcesDir)];
  }
  return {
    command: wrapInSandbox(plan, options.support, wrapped, programs),
    cwd: workspace,
    network: plan.network ? 'open' : proxy ? 'proxy' : 'none',
    dispose: async () => {
      await proxy?.close();
      await rm(privateDir, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}

/** Adds a folder to the plan's hidden ones, unless a hidden folder already covers it. */
function hideToo(plan: SandboxPlan, folder: string): void {
  if (plan.hidden.some((h) => isInside(folder, h))) return;
  plan.hidden.push(folder);
}

export function realOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
