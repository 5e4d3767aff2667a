import { join } from 'node:path';
import type { Command } from './command';

// How a sandboxed session's program is started when its network goes through the app's proxy
// (network-proxy.ts): a shell inside the sandbox first starts the relay (resources/sandbox/
// net-relay.mjs, on the Node the app itself runs on), which returns once it listens, then becomes the
// program. The relay listens on a fixed port of the sandbox's own network namespace, where nothing
// else of the machine can be, and programs find it through the usual proxy variables.

/** The relay's port inside the sandbox's network namespace. */
export const RELAY_PORT = 47127;

export function relayScript(resourcesDir: string): string {
  return join(resourcesDir, 'sandbox', 'net-relay.mjs');
}

/** `command` preceded by the relay; a relay that cannot start ends the start with status 97. */
export function withRelay(command: Command, socket: string, resourcesDir: string): Command {
  const script = 'ELECTRON_RUN_AS_NODE=1 "$0" "$1" "$2" "$3" || exit 97; shift 3; exec "$@"';
  return {
    file: '/bin/sh',
    args: ['-c', script, process.execPath, relayScript(resourcesDir), socket, String(RELAY_PORT), command.file, ...command.args],
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
  return [process.execPath, relayScript(resourcesDir)];
}
