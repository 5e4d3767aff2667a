// Runs INSIDE the sandbox, which has no network of its own (bubblewrap --unshare-net): it listens on
// 127.0.0.1:<port> in the sandbox's network namespace and relays every connection to the app's proxy
// through a Unix socket in the session's private folder (core/exec/sandbox/network-proxy.ts), which
// decides host by host. Programs find it through HTTP_PROXY / HTTPS_PROXY.
//
//   node net-relay.mjs --serve <socket> <port>   the relay itself; once it listens it writes `ready <port>`
//                                                to its standard output and closes it (port 0: any free
//                                                port, for tests outside a sandbox)
//   node net-relay.mjs <socket> <port>           the same started in the background, exiting once it
//                                                listens (a second Node process; only where the system
//                                                has no `setsid`, see core/exec/sandbox/network-relay.ts)
//
// The wrapper script starts the session's program only once the relay has said it is ready, so a first
// request can never find nothing listening: it runs `setsid node net-relay.mjs --serve … &` inside a
// command substitution, which ends when the relay closes its standard output. setsid puts the relay in
// a session of its own, so neither Ctrl-C or Ctrl-Z meant for the program nor the killing of a stopped
// run's processes (by session) reaches it; it ends with the sandbox (its PID namespace).

import { spawn } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

function serve(socket, port) {
  process.title = 'oi-net-relay';
  for (const signal of ['SIGINT', 'SIGHUP', 'SIGTERM', 'SIGQUIT', 'SIGTSTP']) process.on(signal, () => undefined);
  const server = net.createServer((client) => {
    const upstream = connectPumped(socket, client);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close);
    upstream.on('error', close);
    client.pipe(upstream);
  });
  server.on('error', (err) => {
    process.stderr.write(`oi-net-relay: ${err.message}\n`);
    process.exit(1);
  });
  server.listen(port, '127.0.0.1', () => {
    // Written and closed by hand: the wrapper's command substitution ends only when nothing holds the
    // pipe, and process.stdout, once made, would keep it. /dev/null then takes descriptor 1 (the lowest
    // free), so no socket opened later can be given it.
    writeSync(1, `ready ${server.address().port}\n`);
    closeSync(1);
    openSync('/dev/null', 'w');
  });
}

// The download side: the proxy's socket reads into one buffer of its own, reused for every read, and
// each read goes to the client as is; while the client has not taken a read, reading stops. A fresh
// buffer for every read costs a page fault per page on a VM. The same pump as the app's
// (core/exec/sandbox/socket-pump.ts, which says why), here because the relay cannot import it.
function connectPumped(path, target) {
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  let waiting = false;
  const taken = () => {
    if (waiting && target.writableLength === 0) {
      waiting = false;
      source.resume();
    }
  };
  const source = net.connect({
    path,
    onread: {
      buffer,
      callback: (bytes) => {
        target.write(buffer.subarray(0, bytes), taken);
        waiting = target.writableLength > 0;
        return !waiting;
      },
    },
  });
  source.on('end', () => target.end());
  return source;
}

function start(socket, port) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve', socket, String(port)], {
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let said = '';
  child.stdout.on('data', (chunk) => {
    said += chunk.toString();
    if (!said.includes('ready')) return;
    child.stdout.destroy();
    child.unref();
    process.exit(0);
  });
  child.on('exit', (code) => {
    process.stderr.write(`oi-net-relay: the relay stopped before it listened (exit ${code})\n`);
    process.exit(1);
  });
}

const args = process.argv.slice(2);
if (args[0] === '--serve') serve(args[1], Number(args[2]));
else start(args[0], Number(args[1]));
