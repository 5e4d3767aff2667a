import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A port nothing listens on: a server that is not running, for real. Taken below the system's ephemeral
 * range, which `listen(0)` never hands out: a port released after `listen(0)` could be handed to another
 * test's server a moment later (tests share the machine, and several files run at once), and the
 * "refused" connection would then reach that server and wait for an answer. Checked free by binding
 * it once.
 */
export async function closedPort(): Promise<number> {
  const below = ephemeralStart();
  for (let tries = 0; tries < 50; tries++) {
    const port = 10_000 + Math.floor(Math.random() * (below - 10_000));
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port found between 10000 and ${below}`);
}

function ephemeralStart(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const n = Number(low);
    return Number.isInteger(n) && n > 11_000 ? n : 32_768;
  } catch {
    return 32_768; // macOS and others: 49152 and up is theirs; below 32768 is safe on both
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}
