import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Kernels } from '../../../src-main/core/exec';
import { createSessionRouter } from '../../../src-main/core/exec';
import { execFile } from 'node:child_process';
import { AutoInstall } from '../../../src-main/core/exec';
import { type Harness, startHarness, streamTextOf as stdout } from '../../support/exec-harness';
import { buildWheel, venvWithoutOwnPip } from '../../support/package-registries';
import { startJupyterServer, type JupyterServer } from '../../support/jupyter-server';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy';

// A real Jupyter Server (Debian's python3-jupyter-server and python3-ipykernel) on 127.0.0.1 with a
// token, driven through the engine exactly as the agent drives it.

const PYTHON_KERNEL = { kernelName: 'python3', displayName: 'Python 3 (ipykernel)', language: 'python' };

// One server for the file. Its python3 kernel runs in a virtual environment that sees Debian's
// ipykernel and pip (no pip of its own), so the %pip test at the end installs into the kernel's
// environment on the server without a server of its own; to the other tests it is the same real
// ipykernel, started by the same jupyter_server (a server's start is ~1.5 CPU-seconds of imports).
let root: string;
let venv: string;
let server: JupyterServer;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'oi-remote-'));
  venv = join(root, 'kernel-env');
  await venvWithoutOwnPip(venv, { systemSitePackages: true });
  const wheels = join(root, 'wheels');
  await buildWheel(wheels, 'oi_remote_pkg', 99);
  server = await startJupyterServer({
    kernelPython: join(venv, 'bin', 'python'),
    kernelEnv: { PIP_FIND_LINKS: wheels, PIP_NO_INDEX: '1', PIP_NO_CACHE_DIR: '1' },
  });
});
afterAll(async () => {
  await server?.dispose();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('remote Jupyter kernels', () => {
  let proxy: TcpProxy;
  let kernels: Kernels.RemoteKernels;
  let h: Harness;
  const tokens = new Map<string, string>();

  const run = (
    conversationId: string,
    code: string,
    extra: { timeoutMs?: number; signal?: AbortSignal; onTerminal?: (t: string) => void } = {},
  ) =>
    h.run('python', code, {
      conversationId,
      settings: { timeoutMs: extra.timeoutMs ?? 30_000 },
      signal: extra.signal,
      onTerminal: extra.onTerminal,
    });

  beforeAll(async () => {
    proxy = await startTcpProxy(server.port);
    tokens.set(server.url, server.token);
    tokens.set(proxy.url, server.token);
    kernels = new Kernels.RemoteKernels({ tokenFor: async (url) => tokens.get(url) ?? null, lostAfterMs: 3000 });
    h = await startHarness({ graceMs: 1500, router: createSessionRouter({ remote: kernels }) });
  });

  afterAll(async () => {
    await h?.close();
    await proxy?.close();
  });

  it('lists the kernels a server offers, and rejects a wrong token clearly', async () => {
    const specs = await Kernels.listKernelSpecs({ url: server.url, token: server.token });
    expect(specs.default).toBe('python3');
    expect(specs.specs).toContainEqual({ name: 'python3', displayName: 'Python 3 (ipykernel)', language: 'python' });
    await expect(Kernels.listKernelSpecs({ url: server.url, token: 'wrong' })).rejects.toThrow(
      `The Jupyter server at ${server.url} refused the token (HTTP 403). Check the token`,
    );
  });

  it('runs cells on the server: state kept, output streamed, values and plots returned', async () => {
    kernels.bind('remote', { url: server.url, ...PYTHON_KERNEL });
    const first = await run('remote', 'import os\nx = 41\nprint("pid", os.getpid())');
    expect(first.status).toBe('done');
    expect(first.limits.location).toBe(`remote Jupyter kernel "Python 3 (ipykernel)" at ${server.url}`);
    // Local limits cannot reach the server; only the timeout still holds.
    expect(first.limits).toMatchObject({ memoryMb: null, cpuSeconds: null, maxProcesses: null, sandbox: null, timeoutMs: 30_000 });
    const remotePid = Number(/pid (\d+)/.exec(stdout(first))?.[1]);
    expect(remotePid).not.toBe(process.pid);

    let streamed = '';
    const second = await run(
      'remote',
      'import sys, time\nprint("x is", x + 1)\nsys.stdout.flush()\ntime.sleep(0.3)\nprint("err", file=sys.stderr)\nx * 2',
      {
        onTerminal: (text) => (streamed += text),
      },
    );
    expect(second.status).toBe('done');
    expect(streamed).toContain('x is 42\r\n');
    expect(stdout(second)).toContain('x is 42\n');
    expect(stdout(second)).toContain('err\n');
    expect(second.outputs).toContainEqual(expect.objectContaining({ output_type: 'execute_result', data: { 'text/plain': '82' } }));
    expect(second.forModel).toContain('x is 42');
    expect(second.forModel).toContain('82');

    const plot = await run('remote', 'import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.title("remote")\nplt.show()');
    expect(plot.status).toBe('done');
    const image = plot.outputs.find((o) => o.output_type === 'display_data');
    const png = image?.output_type === 'display_data' ? image.data['image/png'] : undefined;
    expect(typeof png).toBe('string');
    expect(
      Buffer.from(png as string, 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    expect(plot.forModel).toContain('[image/png output shown to the user]');

    const failing = await run('remote', '1 / 0');
    expect(failing.status).toBe('failed');
    expect(failing.outputs).toContainEqual(expect.objectContaining({ output_type: 'error', ename: 'ZeroDivisionError' }));
  });

  it('interrupts a running cell and keeps the kernel and its state', async () => {
    kernels.bind('interrupt', { url: server.url, ...PYTHON_KERNEL });
    await run('interrupt', 'kept = "still here"');
    const controller = new AbortController();
    // Interrupted once the cell says it runs (a fixed wait could end before it starts on a loaded machine).
    let streamed = '';
    const running = run('interrupt', 'import time\nprint("looping", flush=True)\nfor i in range(300):\n    time.sleep(0.1)', {
      signal: controller.signal,
      onTerminal: (text) => {
        streamed += text;
      },
    });
    await vi.waitFor(() => expect(streamed).toContain('looping'), { timeout: 30_000, interval: 50 });
    controller.abort();
    const interrupted = await running;
    expect(interrupted.status).toBe('interrupted');
    // ipykernel reports it as an error output or, when the interrupt lands in a sleep, as text.
    expect(interrupted.forModel).toContain('KeyboardInterrupt');
    expect(interrupted.forModel).toContain('Interrupted by the user');
    expect(stdout(await run('interrupt', 'print(kept)'))).toContain('still here');
  });

  it('shuts the kernel down, as the last resort, when a cell ignores the interrupt; the next cell gets a new kernel', async () => {
    // Its own RemoteKernels with a short stopping grace: the default (10 s) keeps slow interrupts from
    // costing a kernel its state, which the test above relies on under load.
    const quick = new Kernels.RemoteKernels({ tokenFor: async (url) => tokens.get(url) ?? null, stopGraceMs: 500 });
    const stubborn = await startHarness({ graceMs: 500, router: createSessionRouter({ remote: quick }) });
    try {
      quick.bind('stubborn', { url: server.url, ...PYTHON_KERNEL });
      const go = (code: string, signal?: AbortSignal, onTerminal?: (t: string) => void) =>
        stubborn.run('python', code, { conversationId: 'stubborn', settings: { timeoutMs: 60_000 }, signal, onTerminal });
      await go('lost = 1');
      const first = quick.kernelIdFor('stubborn');
      const controller = new AbortController();
      let streamed = '';
      const running = go(
        'import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nprint("ignoring", flush=True)\nwhile True:\n    time.sleep(0.1)',
        controller.signal,
        (t) => (streamed += t),
      );
      await vi.waitFor(() => expect(streamed).toContain('ignoring'), { timeout: 30_000, interval: 50 });
      controller.abort();
      const stopped = await running;
      expect(stopped.forModel).toContain('did not stop and was killed: state was lost');
      // Shut down on the server, not left running (the run is answered first; the shutdown follows).
      const onServer = async () =>
        (
          (await (await fetch(`${server.url}/api/kernels`, { headers: { Authorization: `token ${server.token}` } })).json()) as Array<{
            id: string;
          }>
        ).map((k) => k.id);
      await vi.waitFor(async () => expect(await onServer()).not.toContain(first), { timeout: 30_000, interval: 100 });
      const after = await go('print("fresh", "lost" in dir())');
      expect(stdout(after)).toContain('fresh False');
      expect(quick.kernelIdFor('stubborn')).not.toBe(first);
    } finally {
      await stubborn.close();
    }
  });

  it('restarts the kernel: state is gone, the next cell runs on a fresh kernel', async () => {
    kernels.bind('restart', { url: server.url, ...PYTHON_KERNEL });
    await run('restart', 'y = 1');
    const before = kernels.kernelIdFor('restart');
    await h.service.restart('restart', 'python');
    const after = await run('restart', 'print(y)');
    expect(after.status).toBe('failed');
    expect(after.outputs).toContainEqual(expect.objectContaining({ ename: 'NameError' }));
    expect(kernels.kernelIdFor('restart')).not.toBe(before);
    // The old kernel was shut down on the server, not left running.
    const running = (await (
      await fetch(`${server.url}/api/kernels`, { headers: { Authorization: `token ${server.token}` } })
    ).json()) as Array<{ id: string }>;
    expect(running.map((k) => k.id)).not.toContain(before);
  });

  it('keeps the kernel and its variables through a dropped connection', async () => {
    kernels.bind('flaky', { url: proxy.url, ...PYTHON_KERNEL });
    await run('flaky', 'z = "survived"');
    const kernelId = kernels.kernelIdFor('flaky');
    // A blip: the WebSocket drops and reconnects by itself (a new connection through the relay).
    const before = proxy.accepted();
    proxy.drop();
    await vi.waitFor(() => expect(proxy.accepted()).toBeGreaterThan(before), { timeout: 30_000, interval: 50 });
    expect(stdout(await run('flaky', 'print(z)'))).toContain('survived');
    // A longer outage: the run is reported lost, then the next session reattaches to the same kernel.
    await proxy.cut();
    const lost = await run('flaky', 'print(z)');
    expect(lost.status).toBe('died');
    expect(lost.forModel).toContain(`Nothing answers at ${proxy.url} (connection refused)`);
    expect(lost.forModel).toContain('the next run reconnects to it if the server comes back');
    await proxy.resume();
    const back = await run('flaky', 'print(z)');
    expect(back.status).toBe('done');
    expect(stdout(back)).toContain('reconnected to the remote python kernel');
    expect(stdout(back)).toContain('survived');
    expect(kernels.kernelIdFor('flaky')).toBe(kernelId);
  });

  it('says clearly when the token is wrong or the server has stopped', async () => {
    kernels.bind('wrong-token', { url: server.url, ...PYTHON_KERNEL });
    tokens.set(server.url, 'not-the-token');
    try {
      const refused = await run('wrong-token', 'print(1)');
      expect(refused.status).toBe('died');
      expect(refused.forModel).toContain(`The Jupyter server at ${server.url} refused the token (HTTP 403)`);
    } finally {
      tokens.set(server.url, server.token);
    }

    const stopped = await startJupyterServer();
    tokens.set(stopped.url, stopped.token);
    kernels.bind('stopped', { url: stopped.url, ...PYTHON_KERNEL });
    try {
      expect(stdout(await run('stopped', 'print("up")'))).toContain('up');
      await stopped.stop();
      const down = await run('stopped', 'print("up")');
      expect(down.status).toBe('died');
      expect(down.forModel).toMatch(
        /Nothing answers at http:\/\/127\.0\.0\.1:\d+ \(connection refused\): is the Jupyter server running\?|The remote python kernel died/,
      );
      const never = await run('stopped', 'print("up")');
      expect(never.status).toBe('died');
      expect(never.forModel).toContain(
        `Could not start the python session: Nothing answers at ${stopped.url} (connection refused): is the Jupyter server running?`,
      );
    } finally {
      await stopped.dispose();
    }
  });
});

describe('missing packages on a remote kernel', () => {
  it('installs them on the server with %pip in the kernel, not on this machine', async () => {
    // The file's server: its kernel's environment sees Debian's ipykernel and pip; %pip installs into it.
    const kernels = new Kernels.RemoteKernels({ tokenFor: async () => server.token });
    const commands: string[] = [];
    const pip = await startHarness({
      workspace: root,
      tmpRoot: root,
      graceMs: 2000,
      router: createSessionRouter({ remote: kernels }),
      wrap: (engine) => AutoInstall.withAutoInstall(engine, { approve: async (q) => (commands.push(q.command), true) }),
    });
    try {
      kernels.bind('remote-pip', { url: server.url, ...PYTHON_KERNEL });
      const result = await pip.run('python', 'import oi_remote_pkg\nprint("remote value", oi_remote_pkg.VALUE)', {
        conversationId: 'remote-pip',
        settings: { timeoutMs: 60_000 },
      });
      expect(commands).toEqual(['%pip install oi_remote_pkg']);
      expect(result.status, result.forModel).toBe('done');
      expect(stdout(result)).toContain('remote value 99');
      expect(result.limits.location).toContain(server.url);
      // Installed into the kernel's environment on the server.
      const listed = await new Promise<string>((done) =>
        execFile(join(venv, 'bin', 'python'), ['-m', 'pip', 'show', 'oi_remote_pkg'], (_e, out) => done(out)),
      );
      expect(listed).toContain('Name: oi_remote_pkg');
    } finally {
      await pip.close();
    }
  }, 120_000);
});
