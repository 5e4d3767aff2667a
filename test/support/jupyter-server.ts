import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { createJupyterHome, SYSTEM_PYTHON } from './jupyter-home';
import { endWithTest } from './test-children';

// A real Jupyter Server from Debian (python3-jupyter-server + python3-ipykernel) on 127.0.0.1 with
// a token. Everything it writes (config, runtime files, IPython and matplotlib caches) goes to one
// temp dir, removed by stop().

export const PYTHON = SYSTEM_PYTHON;

export interface JupyterServer {
  url: string;
  token: string;
  port: number;
  dir: string;
  /** Stops the server (and its kernels); the temp dir stays until dispose(). */
  stop(): Promise<void>;
  /** Starts it again on the same port and token (kernels do not survive a server restart). */
  restart(): Promise<void>;
  dispose(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface JupyterServerOptions {
  /** The python3 kernel's interpreter (default: Debian's /usr/bin/python3, which needs ipykernel). */
  kernelPython?: string;
  /** Extra environment for kernels (the kernelspec's env). */
  kernelEnv?: Record<string, string>;
}

export async function startJupyterServer(options: JupyterServerOptions = {}): Promise<JupyterServer> {
  const home = createJupyterHome({ prefix: 'oi-jupyter-', kernelPython: options.kernelPython, kernelEnv: options.kernelEnv });
  const { dir, work } = home;
  const { env } = home;
  const token = randomBytes(16).toString('hex');
  const port = await freePort();
  let child: ChildProcess | null = null;

  const start = async (): Promise<void> => {
    const proc = spawn(
      PYTHON,
      [
        '-m',
        'jupyter_server',
        `--ServerApp.token=${token}`,
        '--ServerApp.ip=127.0.0.1',
        `--port=${port}`,
        '--port-retries=0',
        '--no-browser',
        // A kernel told to shut down gets this long to exit before the server kills it (default 5 s: a
        // kernel whose cell ignores the interrupt sat out all of it in remote-kernel.test.ts).
        '--KernelManager.shutdown_wait_time=0.5',
        `--ServerApp.root_dir=${work}`,
        ...(process.getuid?.() === 0 ? ['--allow-root'] : []),
      ],
      { env, cwd: work, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // Usually started in a beforeAll and stopped in afterAll; one started by a test ends with it.
    endWithTest(proc);
    child = proc;
    let log = '';
    proc.stdout?.on('data', (c: Buffer) => (log += c.toString()));
    proc.stderr?.on('data', (c: Buffer) => (log += c.toString()));
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`jupyter_server exited: ${log}`);
      const ok = await fetch(`http://127.0.0.1:${port}/api`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      if (Date.now() > deadline) throw new Error(`jupyter_server did not start: ${log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  const stop = async (): Promise<void> => {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };

  try {
    await start();
  } catch (err) {
    await stop();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    port,
    dir,
    stop,
    restart: start,
    async dispose() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
