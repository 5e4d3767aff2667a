import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import type { SandboxSettings } from '@contract';
import { isInside, reachesInto, writableZones } from './writable-zones';

// What a sandboxed session may see and touch, decided once per session and turned into a
// bubblewrap command line (bubblewrap-args.ts) or a macOS profile (seatbelt-profile.ts). Both read
// the same plan, so the two platforms keep the same rules and describe-sandbox.ts can say exactly
// which ones hold.

export interface ExtraPath {
  path: string;
  writable: boolean;
}

export interface SandboxPlan {
  workspace: string;
  /** Plan mode (docs/agent.md#plan-mode): the workspace is bound read-only. */
  workspaceReadOnly?: boolean;
  /** The session's private folder (side-channel socket, cell files): readable and writable. */
  privateDir: string;
  /**
   * Folders replaced by empty read-only ones: the user's home, where other homes and login sessions
   * live, and where the system keeps its Unix sockets (/run).
   */
  hidden: string[];
  /** System files inside a hidden folder that programs need, shown read-only (resolv.conf's target). */
  systemFiles: string[];
  /** Temp folders replaced by empty writable ones private to the session. */
  privateTemp: string[];
  /** Folders the user added in settings (`/path` read-only, `/path:rw` read-write). */
  extra: ExtraPath[];
  /**
   * Folders sandboxed code must never write, whatever else is writable: the app's data folder (its
   * hooks.json runs commands outside the sandbox, its settings, schedules and skills are followed by
   * the app). Given as `/path:sealed` entries (sandbox-policy.ts withSealedFolder); each by its path
   * and its real path, as the writable binds are compared by both.
   */
  sealed: string[];
  network: boolean;
  /**
   * With the network off: the port of the relay to the app's proxy inside the sandbox
   * (network-relay.ts), announced to programs through the proxy variables; null for no way out at all.
   */
  proxyPort: number | null;
  /**
   * The names programs reach without the proxy (NO_PROXY); default the loopback names. A hosted agent
   * whose provider is on this machine goes through the proxy to it, so its host is left out.
   */
  proxyBypass?: string[];
  /**
   * No controlling terminal (bubblewrap --new-session). One-off programs (probes, installers) need
   * none, and would otherwise keep the app's own — the terminal `oi` runs in — where TIOCSTI types a
   * command for the user's shell to run once the app exits. Sessions keep theirs: a pseudo-terminal of
   * their own that only the sandbox reads, and Ctrl-C and job control need it.
   */
  newSession: boolean;
}

export interface PlanInput {
  settings: SandboxSettings & { workspaceReadOnly?: boolean };
  workspace: string;
  privateDir: string;
  /** HOME as the session will see it; hidden along with the account's home (os.homedir()). */
  home?: string;
}

/** Where homes live on Unix. */
const HOMES_ON_UNIX = ['/home', '/root', '/Users'];

/**
 * Where Unix sockets live: a socket on a visible path can be connected to even with the network off
 * and the file system read-only (connect needs no write to the mount). /run holds the system bus,
 * systemd's sockets, docker.sock, databases (/run/postgresql), and under /run/user each login's
 * session bus, keyring, ssh and gpg agents, Wayland and audio; /var/run is the same folder (or its
 * old name). /tmp (X11's /tmp/.X11-unix, the session bus of some setups) and /dev (/dev/log) are the
 * sandbox's own already. Compared by their real path: /var/run is usually a link to /run. Linux only:
 * on macOS the profile's network rule already denies connecting to a Unix socket, and hiding
 * /private/var/run would take DNS (mDNSResponder's socket) from code allowed the network.
 */
const SOCKET_FOLDERS = ['/run', '/var/run'];

/**
 * The DNS settings are often a link into /run (systemd-resolved: /run/systemd/resolve/stub-resolv.conf);
 * the file alone is shown again, or no name resolves with the network allowed.
 */
const RESOLV_CONF = '/etc/resolv.conf';

export function planSandbox(input: PlanInput): SandboxPlan {
  const home = input.home ?? homedir();
  const sockets = (process.platform === 'darwin' ? [] : SOCKET_FOLDERS).map((p) => realPath(p)).filter((p): p is string => p !== null);
  const hidden = [...new Set([...[home, homedir(), ...HOMES_ON_UNIX].map((p) => resolve(p)), ...sockets])]
    .filter((p) => p !== '/' && existsSync(p))
    // A folder inside another hidden one is hidden with it.
    .filter((p, _i, all) => !all.some((other) => other !== p && isInside(p, other)));
  const resolver = realPath(RESOLV_CONF);
  return {
    workspace: resolve(input.workspace),
    workspaceReadOnly: input.settings.workspaceReadOnly === true,
    privateDir: resolve(input.privateDir),
    hidden,
    systemFiles: resolver && hidden.some((h) => isInside(resolver, h)) ? [resolver] : [],
    privateTemp: ['/tmp', '/var/tmp'],
    extra: input.settings.extraPaths.filter((entry) => !isSealedEntry(entry)).map((entry) => parseExtraPath(entry, home)),
    // One that does not exist is nothing to protect, and sealing it would make bubblewrap create it.
    sealed: writableZones(input.settings.extraPaths.filter(isSealedEntry).map((entry) => parseExtraPath(entry, home).path)).filter((p) =>
      existsSync(p),
    ),
    network: input.settings.allowNetwork,
    proxyPort: null,
    newSession: false,
  };
}

const SEALED = ':sealed';

/** An entry the app adds for a folder code must never write (plan.sealed), never the user's own. */
export function isSealedEntry(entry: string): boolean {
  return entry.endsWith(SEALED);
}

/** `~/data` → `/home/me/data` read-only; `~/out:rw` → read-write; a sealed entry is never writable. */
export function parseExtraPath(entry: string, home: string): ExtraPath {
  const writable = entry.endsWith(':rw');
  let path = isSealedEntry(entry) ? entry.slice(0, -SEALED.length) : writable || entry.endsWith(':ro') ? entry.slice(0, -3) : entry;
  if (path === '~' || path.startsWith('~/')) path = join(home, path.slice(1));
  return { path: resolve(path), writable };
}

/**
 * The folders a spawn needs to read when they live inside a hidden folder: a runtime installed in
 * the home (pyenv, nvm, a venv's base interpreter) and the runner script. For a program, its install
 * prefix (the folder above bin/) is kept, since the interpreter loads its libraries from there.
 * A path sandboxed code can write (the workspace's .venv/bin/python) is never followed to decide
 * this: it could point anywhere, and whatever it named would become readable. `support` lists the
 * programs the app found itself that such a runtime needs (Runtime.support).
 */
export function readablePathsFor(plan: SandboxPlan, file: string, args: readonly string[], support: readonly string[] = []): string[] {
  const covered = [...plan.hidden, ...plan.privateTemp];
  const hiddenOnly = (p: string): boolean => covered.some((h) => isInside(p, h)) && !isInside(p, plan.workspace);
  const zones = planZones(plan);
  const out = new Set<string>();
  // A wrapper (the macOS ulimit shell) passes the real program as an argument: treat all alike.
  for (const candidate of [file, ...args, ...support]) {
    if (!isAbsolute(candidate) || !existsSync(candidate) || reachesInto(candidate, zones)) continue;
    for (const path of new Set([candidate, realPath(candidate) ?? candidate])) {
      if (!hiddenOnly(path) || isInside(path, plan.privateDir)) continue;
      const folder = dirname(path);
      out.add(folder.endsWith(`${sep}bin`) ? dirname(folder) : folder);
    }
  }
  return [...out];
}

/**
 * The sealed folders a writable bind (the workspace, a `:rw` extra path) would expose: those inside
 * one of them. A sealed folder elsewhere is already out of reach (under a hidden folder or the
 * read-only root), and when the workspace lies inside it (a conversation's own folder under the data
 * folder) it is the workspace that is inside, not the other way round.
 */
export function exposedSealed(plan: SandboxPlan): string[] {
  const binds = writableZones([plan.workspace, ...plan.extra.filter((e) => e.writable).map((e) => e.path)]);
  return plan.sealed.filter((folder) => binds.some((bind) => isInside(folder, bind)));
}

/**
 * What sandboxed code can write under this plan (writable-zones.ts). The workspace counts even when
 * plan mode binds it read-only: code that ran before plan mode could write it.
 */
export function planZones(plan: SandboxPlan): string[] {
  return writableZones([plan.workspace, plan.privateDir, ...plan.extra.filter((e) => e.writable).map((e) => e.path)]);
}

function realPath(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
