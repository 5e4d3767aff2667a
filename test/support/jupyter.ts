import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startForkedKernels, zygoteSocketIn } from './forked-kernels';
import { createJupyterHome, runSystemPython, SYSTEM_PYTHON } from './jupyter-home';

// Real Jupyter, from Debian's /usr/bin/python3 (the first python3 on PATH lacks nbformat). Every
// directory Jupyter, IPython and matplotlib write to points into one temp dir, removed by dispose().

export const PYTHON = SYSTEM_PYTHON;

export interface Jupyter {
  env: NodeJS.ProcessEnv;
  dir: string;
  /** Runs Python code with `stdin`; resolves with stdout, rejects with stderr on a non-zero exit. */
  python(code: string, stdin?: string, args?: string[]): Promise<string>;
  /**
   * The same for code that starts no kernel (nbformat work, metadata): with `forkedKernels`, it
   * neither starts the kernel zygote nor waits for it.
   */
  pythonWithoutKernels(code: string, stdin?: string, args?: string[]): Promise<string>;
  /**
   * nbformat.validate on each text; null for valid, else the error message. One Python process.
   * `exact` validates the JSON as it is, without nbformat.reads tidying it first.
   */
  validate(texts: string[], options?: { exact?: boolean }): Promise<Array<string | null>>;
  /** nbformat.writes(nbformat.reads(text)): what Jupyter itself would write for this notebook. */
  rewrite(text: string): Promise<string>;
  /** nbconvert --execute; resolves with the executed notebook's text. */
  execute(text: string): Promise<string>;
  dispose(): void;
}

export interface JupyterOptions {
  /**
   * Kernels forked from a kernel zygote (test/support/forked-kernels.ts): still one fresh kernel per
   * notebook, without its imports. For files whose kernels only make real outputs to test the app with.
   */
  forkedKernels?: boolean;
}

export function startJupyter(options: JupyterOptions = {}): Jupyter {
  const home = createJupyterHome({ prefix: 'oi-nb-', ...(options.forkedKernels ? { zygoteSocket: zygoteSocketIn } : {}) });
  const { dir, work } = home;
  const env: NodeJS.ProcessEnv = { ...home.env, MPLBACKEND: 'Agg' };
  // Started at the first call that may start a kernel: a file whose notebooks all come from the
  // run's cache (real-shapes.ts) starts no kernel, and a zygote's imports are about a CPU-second.
  let forked: ReturnType<typeof startForkedKernels> | null = null;
  const kernels = (): Promise<void> | undefined => {
    if (!options.forkedKernels) return undefined;
    forked ??= startForkedKernels(dir, env, work);
    return forked.ready;
  };

  const run = async (args: string[], stdin: string): Promise<string> => {
    await kernels();
    return runSystemPython(args, stdin, env, work);
  };
  const runWithoutKernels = (args: string[], stdin: string): Promise<string> => runSystemPython(args, stdin, env, work);

  return {
    env,
    dir,
    python: (code, stdin = '', args = []) => run(['-c', code, ...args], stdin),
    pythonWithoutKernels: (code, stdin = '', args = []) => runWithoutKernels(['-c', code, ...args], stdin),
    async validate(texts, options = {}) {
      const load = options.exact ? 'json.loads(text)' : 'nbformat.reads(text, as_version=4)';
      const out = await runWithoutKernels(
        [
          '-c',
          [
            'import json, sys, nbformat',
            'results = []',
            'for text in json.load(sys.stdin):',
            '    try:',
            `        nbformat.validate(${load})`,
            '        results.append(None)',
            '    except Exception as e:',
            '        results.append(f"{type(e).__name__}: {e}"[:2000])',
            'json.dump(results, sys.stdout)',
          ].join('\n'),
        ],
        JSON.stringify(texts),
      );
      return JSON.parse(out) as Array<string | null>;
    },
    rewrite: (text) =>
      runWithoutKernels(
        ['-c', 'import sys, nbformat; sys.stdout.write(nbformat.writes(nbformat.reads(sys.stdin.read(), as_version=4)))'],
        text,
      ),
    async execute(text) {
      const file = path.join(work, `nb-${Date.now()}-${Math.random().toString(36).slice(2)}.ipynb`);
      writeFileSync(file, text);
      return run(['-m', 'nbconvert', '--to', 'notebook', '--execute', '--stdout', '--ExecutePreprocessor.kernel_name=python3', file], '');
    },
    dispose: () => {
      forked?.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
