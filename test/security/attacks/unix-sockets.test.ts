import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, chmodSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxSettings } from '@contract';
import { bubblewrapArgs } from '../../../src-main/core/exec/sandbox/bubblewrap-args';
import { planSandbox } from '../../../src-main/core/exec/sandbox/sandbox-plan';
import { SANDBOX, startSandboxTarget, stdoutOf, type SandboxTarget } from './support/sandbox-target';

// Issue 17, finding 8: with the network off, the sandbox still reached Unix sockets on paths it could
// see — the system bus, systemd, docker.sock and databases under /run, anything under /var/run. A
// socket needs no network and no write access to its mount to be connected to. The test starts real
// socket servers where such sockets live (/run, an X11-style /tmp/.X11-unix/X<n>, the abstract
// namespace), each answering with a secret, and a sandboxed cell tries them all. The twins: the same
// client run directly reaches every one (they are real), and bubblewrap started with the engine's own
// arguments minus the one protection reaches the socket it guarded.

const BWRAP = '/usr/bin/bwrap';
const SECRET = `host-secret-${process.pid}`;

interface Target {
  name: string;
  /** The address a client connects to ('\0…' for the abstract namespace). */
  address: string;
}

/** Python that tries each address and prints `GOT <name> <reply>` or `refused <name> <error>`. */
function client(targets: Target[]): string {
  return [
    'import socket',
    `for name, address in ${JSON.stringify(targets.map((t) => [t.name, t.address]))}:`,
    '    s = socket.socket(socket.AF_UNIX)',
    '    s.settimeout(10)',
    '    try:',
    '        s.connect(address)',
    '        print("GOT", name, s.recv(200).decode(), flush=True)',
    '    except OSError as e:',
    '        print("refused", name, type(e).__name__, flush=True)',
    '    finally:',
    '        s.close()',
  ].join('\n');
}

function run(file: string, args: string[]): Promise<string> {
  return new Promise((done) => execFile(file, args, { timeout: 60_000 }, (_err, stdout, stderr) => done(`${stdout}${stderr}`)));
}

function listen(address: string): Promise<Server> {
  const server = createServer((socket) => socket.end(SECRET));
  return new Promise((ready, fail) => {
    server.once('error', fail);
    server.listen(address, () => ready(server));
  });
}

/**
 * An abstract socket served by Python: Node (20) pads an abstract name to the full address length,
 * which no ordinary client asks for.
 */
function listenAbstract(address: string): Promise<ChildProcess> {
  const code = [
    'import socket, sys',
    's = socket.socket(socket.AF_UNIX)',
    's.bind("\\0" + sys.argv[1])',
    's.listen(16)',
    'print("ready", flush=True)',
    'while True:',
    '    c, _ = s.accept()',
    '    c.sendall(sys.argv[2].encode())',
    '    c.close()',
  ].join('\n');
  const child = spawn('/usr/bin/python3', ['-c', code, address.slice(1), SECRET], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((ready, fail) => {
    child.once('error', fail);
    child.stdout?.once('data', () => ready(child));
  });
}

const got = (output: string, name: string): boolean => output.includes(`GOT ${name} ${SECRET}`);

describe('Unix sockets of the host are out of reach from the sandbox (issue 17 #8)', () => {
  let t: SandboxTarget;
  const servers: Server[] = [];
  let abstractServer: ChildProcess | undefined;
  const runDir = `/run/oi-attack-${process.pid}`;
  const x11Dir = '/tmp/.X11-unix';
  const madeX11Dir = !existsSync(x11Dir);
  const display = `X${7000 + (process.pid % 1000)}`;
  const targets: Record<'run' | 'varRun' | 'x11' | 'abstract', Target> = {
    run: { name: 'run', address: join(runDir, 'bus') },
    // The same socket by its other name: /var/run is a link to /run here, its own folder elsewhere.
    varRun: { name: 'var-run', address: join('/var/run', `oi-attack-${process.pid}`, 'bus') },
    x11: { name: 'x11', address: join(x11Dir, display) },
    abstract: { name: 'abstract', address: `\0oi-attack-${process.pid}` },
  };
  const all = Object.values(targets);

  beforeAll(async () => {
    t = await startSandboxTarget();
    mkdirSync(runDir, { recursive: true });
    // As an X server makes it: everyone may create their display's socket there.
    if (madeX11Dir) {
      mkdirSync(x11Dir);
      chmodSync(x11Dir, 0o1777);
    }
    for (const address of [targets.run.address, targets.x11.address]) servers.push(await listen(address));
    abstractServer = await listenAbstract(targets.abstract.address);
  });
  afterAll(async () => {
    for (const server of servers) await new Promise((done) => server.close(done));
    abstractServer?.kill('SIGTERM');
    rmSync(runDir, { recursive: true, force: true });
    rmSync(targets.x11.address, { force: true });
    if (madeX11Dir) rmSync(x11Dir, { recursive: true, force: true });
    await t?.close();
  });

  /** The client, run by bubblewrap with the engine's arguments for `settings` minus the given ones. */
  async function weakened(settings: SandboxSettings, remove: Array<[string, string]>): Promise<string> {
    const privateDir = await mkdtemp(join(t.tmpRoot, 'twin-'));
    const plan = planSandbox({ settings, workspace: t.workspace, privateDir, home: t.home });
    const args = bubblewrapArgs(plan, { file: '/usr/bin/python3', args: ['-c', client(all)] }, []);
    for (const [flag, value] of remove) {
      const at = args.findIndex((a, i) => a === flag && (value === '' || args[i + 1] === value));
      expect(at, `${flag} ${value} is in the engine's arguments`).toBeGreaterThan(-1);
      args.splice(at, value === '' ? 1 : 2);
    }
    return run(BWRAP, args);
  }

  it('twin: the sockets are real, and a client outside the sandbox reaches every one', async () => {
    const direct = await run('/usr/bin/python3', ['-c', client(all)]);
    for (const target of all) expect(got(direct, target.name), `${target.name} answers: ${direct}`).toBe(true);
  });

  it('with the network off, a sandboxed cell reaches none of them', async () => {
    const result = stdoutOf(await t.run('sockets-off', 'python', client(all), { sandbox: SANDBOX }));
    for (const target of all) {
      expect(result).toContain(`refused ${target.name}`);
      expect(got(result, target.name)).toBe(false);
    }
    expect(result).not.toContain(SECRET);
  });

  it('with the network allowed, /run and /tmp stay out of reach; the abstract namespace is the network (documented)', async () => {
    const result = stdoutOf(await t.run('sockets-on', 'python', client(all), { sandbox: { ...SANDBOX, allowNetwork: true } }));
    for (const target of [targets.run, targets.varRun, targets.x11]) expect(got(result, target.name), result).toBe(false);
    // Abstract sockets belong to the network namespace: allowed network, allowed sockets
    // (docs/sandbox.md, "What the sandbox does not do").
    expect(got(result, targets.abstract.name), result).toBe(true);
  });

  it('a socket folder named in extraPaths is reachable on purpose', async () => {
    const result = stdoutOf(
      await t.run('sockets-extra', 'python', client([targets.run]), { sandbox: { ...SANDBOX, extraPaths: [runDir] } }),
    );
    expect(got(result, targets.run.name), result).toBe(true);
  });

  it('twin: without hiding /run, the sandboxed client reaches the socket there, by both names', async () => {
    const twin = await weakened(SANDBOX, [
      ['--tmpfs', '/run'],
      ['--remount-ro', '/run'],
    ]);
    expect(got(twin, targets.run.name), twin).toBe(true);
    expect(got(twin, targets.varRun.name), twin).toBe(true);
    expect(got(twin, targets.x11.name)).toBe(false);
  });

  it('twin: without the private /tmp, the sandboxed client reaches the X11 socket', async () => {
    const twin = await weakened(SANDBOX, [['--tmpfs', '/tmp']]);
    expect(got(twin, targets.x11.name), twin).toBe(true);
    expect(got(twin, targets.run.name)).toBe(false);
  });

  it('twin: without --unshare-net, the sandboxed client reaches the abstract socket', async () => {
    const twin = await weakened(SANDBOX, [['--unshare-net', '']]);
    expect(got(twin, targets.abstract.name), twin).toBe(true);
    expect(got(twin, targets.run.name)).toBe(false);
  });
});
