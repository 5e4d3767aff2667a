// Runs INSIDE the sandbox, which has no network of its own (bubblewrap --unshare-net): it listens on
// 127.0.0.1:<port> in the sandbox's network namespace and relays every connection to the app's proxy
// through a Unix socket in the session's private folder (core/exec/sandbox/network-proxy.ts), which
// decides host by host. Programs find it through HTTP_PROXY / HTTPS_PROXY.
//
//   node net-relay.mjs <socket> <port>           start the relay in the background, exit once it listens
//   node net-relay.mjs --serve <socket> <port>   the relay itself; says `ready <port>` once it listens
//                                                (port 0: any free port, for tests outside a sandbox)
//
// The first form lets the wrapper script start the session's program only once the relay is ready,
// so a first request can never find nothing listening. The relay leaves the terminal's process group,
// so Ctrl-C meant for the program does not reach it; it ends with the sandbox (its PID namespace).

import { spawn } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

function serve(socket, port) {
  process.title = 'oi-net-relay';
  for (const signal of ['SIGINT', 'SIGHUP', 'SIGTERM', 'SIGQUIT']) process.on(signal, () => undefined);
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
    process.stdout.write(`ready ${server.address().port}\n`);
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
