import { spawn } from 'node:child_process';
import path from 'node:path';
import { SYSTEM_PYTHON, ZYGOTE } from './jupyter-home';
import { endWithTest } from './test-children';

/** Where a Jupyter home's kernel zygote listens (createJupyterHome's `zygoteSocket`). */
export const zygoteSocketIn = (dir: string): string => path.join(dir, 'zygote.sock');

export interface ForkedKernels {
  /** Settles once the zygote listens: a kernel asked for before then would find no socket. */
  ready: Promise<void>;
  stop(): void;
}

/**
 * Starts the kernel zygote (kernel-zygote.py) of a Jupyter home made with `zygoteSocket: zygoteSocketIn`:
 * its python3 kernels are then forked from a Python that imported ipykernel and ran nothing, each one
 * fresh, without the ~1 CPU-second of imports a kernel started afresh pays. For tests whose kernels are
 * a means (notebooks executed to have real outputs), not the thing tested.
 */
export function startForkedKernels(homeDir: string, env: NodeJS.ProcessEnv, cwd: string): ForkedKernels {
  const zygote = endWithTest(spawn(SYSTEM_PYTHON, [ZYGOTE, zygoteSocketIn(homeDir)], { env, cwd, stdio: 'pipe' }));
  let stderr = '';
  zygote.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const ready = new Promise<void>((resolve, reject) => {
    zygote.stdout.once('data', () => resolve());
    zygote.once('exit', (code) => reject(new Error(`the kernel zygote exited (${code}): ${stderr}`)));
  });
  // Not unhandled when nobody asked for a kernel before it ended.
  ready.catch(() => undefined);
  return { ready, stop: () => zygote.kill('SIGKILL') };
}
