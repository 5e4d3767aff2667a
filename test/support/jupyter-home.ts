import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { endWithTest } from './test-children';

/** Debian's Python, which has Jupyter, nbformat and matplotlib (the python3 first on PATH does not). */
export const SYSTEM_PYTHON = '/usr/bin/python3';

/**
 * What `python -m ipykernel_launcher` runs, without the kernel's debugger: ipykernel imports debugpy's
 * server at start when it is installed (0.55 of a kernel's ~1.6 CPU-seconds, measured with Debian's
 * ipykernel 6.17), and no test debugs a kernel. A missing debugpy is a configuration ipykernel supports
 * (the debugger is then off); how cells run and what they print is the same. sys.path starts as
 * `python -m` starts it, with the current folder's full path (`-c` would give '').
 */
const KERNEL_LAUNCHER = [
  'import sys',
  "sys.modules['debugpy'] = None",
  "if sys.path and sys.path[0] == '': sys.path[0] = __import__('os').getcwd()",
  'from ipykernel import kernelapp',
  'kernelapp.launch_new_instance()',
].join('\n');

/** The kernelspec's command when a kernel zygote forks the kernels (kernel-zygote.py). */
export const ZYGOTE = path.join(import.meta.dirname, 'kernel-zygote.py');
const ZYGOTE_CLIENT = path.join(import.meta.dirname, 'kernel-zygote-client.py');

/** Runs Debian's Python with `args` and `stdin`; resolves with stdout, rejects with stderr on a non-zero exit. */
export function runSystemPython(args: string[], stdin: string, env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = endWithTest(spawn(SYSTEM_PYTHON, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] }));
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new Error(`python exited ${code}: ${Buffer.concat(err).toString('utf8').slice(-4000)}`));
    });
    child.stdin.end(stdin);
  });
}

export interface JupyterHome {
  dir: string;
  /** The environment for Jupyter processes: every folder they write to is inside `dir`. */
  env: NodeJS.ProcessEnv;
  /** A working folder inside `dir`. */
  work: string;
  dispose(): void;
}

/**
 * A throwaway home for real Jupyter: config, data, runtime, IPython and matplotlib folders in one temp
 * dir, and our own python3 kernelspec there, so no kernel installed elsewhere on the machine is used.
 */
export function createJupyterHome(options: {
  prefix: string;
  kernelPython?: string;
  kernelEnv?: Record<string, string>;
  /** Kernels forked by a kernel zygote listening here (kernel-zygote.py) instead of started afresh. */
  zygoteSocket?: (dir: string) => string;
}): JupyterHome {
  const dir = mkdtempSync(path.join(tmpdir(), options.prefix));
  const python = options.kernelPython ?? SYSTEM_PYTHON;
  const argv = options.zygoteSocket
    ? [python, '-I', '-S', ZYGOTE_CLIENT, options.zygoteSocket(dir), '{connection_file}']
    : [python, '-c', KERNEL_LAUNCHER, '-f', '{connection_file}'];
  const sub = (name: string): string => {
    const p = path.join(dir, name);
    mkdirSync(p, { recursive: true });
    return p;
  };
  const data = sub('data');
  mkdirSync(path.join(data, 'kernels', 'python3'), { recursive: true });
  writeFileSync(
    path.join(data, 'kernels', 'python3', 'kernel.json'),
    JSON.stringify({
      argv,
      display_name: 'Python 3 (ipykernel)',
      language: 'python',
      env: options.kernelEnv ?? {},
    }),
  );
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    HOME: sub('home'),
    JUPYTER_CONFIG_DIR: sub('config'),
    JUPYTER_DATA_DIR: data,
    JUPYTER_RUNTIME_DIR: sub('runtime'),
    JUPYTER_PLATFORM_DIRS: '1',
    IPYTHONDIR: sub('ipython'),
    MPLCONFIGDIR: sub('mpl'),
    PYDEVD_DISABLE_FILE_VALIDATION: '1',
    PYTHONDONTWRITEBYTECODE: '1',
  };
  return { dir, env, work: sub('work'), dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
