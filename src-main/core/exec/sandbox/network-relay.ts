import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from './command';

// How a sandboxed session's program is started when its network goes through the app's proxy
// (network-proxy.ts): a shell inside the sandbox first starts the relay (resources/sandbox/
// net-relay.mjs, on the Node the app itself runs on) in the background under `setsid`, waits until it
// says it listens, then becomes the program. One Node process per session: without setsid the relay
// would have to start a second, detached one itself (Node cannot leave its session), which cost a
// Node start-up at every session start. The relay listens on a fixed port of the sandbox's own network
// namespace, where nothing else of the machine can be, and programs find it through the usual proxy
// variables.

/** The relay's port inside the sandbox's network namespace. */
export const RELAY_PORT = 47127;

export function relayScript(resourcesDir: string): string {
  return join(resourcesDir, 'sandbox', 'net-relay.mjs');
}

/** Where the system keeps `setsid` (util-linux, or busybox's): a system folder the sandbox shows read-only. */
const SETSID = ['/usr/bin/setsid', '/bin/setsid'];

/** `command` preceded by the relay; a relay that cannot start ends the start with status 97. */
export function withRelay(command: Command, socket: string, resourcesDir: string, setsid = SETSID.find((p) => existsSync(p))): Command {
  // The command substitution ends when the relay closes its standard output after `ready <port>`;
  // the relay goes on, adopted by the sandbox's init. A background job of a shell without job control
  // is not a group leader, so setsid makes the new session without forking again.
  const script = setsid
    ? 'said=$(ELECTRON_RUN_AS_NODE=1 "$4" "$0" "$1" --serve "$2" "$3" &); [ "$said" = "ready $3" ] || exit 97; shift 4; exec "$@"'
    : 'ELECTRON_RUN_AS_NODE=1 "$0" "$1" "$2" "$3" || exit 97; shift 4; exec "$@"';
  return {
    file: '/bin/sh',
    args: [
      '-c',
      script,
      process.execPath,
      relayScript(resourcesDir),
      socket,
      String(RELAY_PORT),
      setsid ?? '',
      command.file,
      ...command.args,
    ],
  };
}

/** The names of the sandbox's own loopback, where the servers the code itself starts listen. */
export const LOOPBACK_NAMES: readonly string[] = ['localhost', '127.0.0.1', '::1'];

/** What the sandbox's programs are told: the proxy for HTTP and HTTPS, nothing for this machine. */
export function proxyEnvironment(port: number = RELAY_PORT, bypass: readonly string[] = LOOPBACK_NAMES): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  const local = bypass.join(',');
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    NO_PROXY: local,
    no_proxy: local,
    // Node's fetch and http follow the variables only when asked to (Node 24).
    NODE_USE_ENV_PROXY: '1',
  };
}

/** The programs the relay needs to see inside the sandbox (Node may live in a hidden home). */
export function relayPrograms(resourcesDir: string): string[] {
  const setsid = SETSID.find((p) => existsSync(p));
  return [process.execPath, relayScript(resourcesDir), ...(setsid ? [setsid] : [])];
}
