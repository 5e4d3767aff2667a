import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// Real Jupyter, from Debian's /usr/bin/python3 (the first python3 on PATH lacks nbformat). Every
// directory Jupyter, IPython and matplotlib write to points into one temp dir, removed by dispose().

export const PYTHON = '/usr/bin/python3';

export interface Jupyter {
  env: NodeJS.ProcessEnv;
  dir: string;
  /** Runs Python code with `stdin`; resolves with stdout, rejects with stderr on a non-zero exit. */
  python(code: string, stdin?: string, args?: string[]): Promise<string>;
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

export function startJupyter(): Jupyter {
  const dir = mkdtempSync(path.join(tmpdir(), 'oi-nb-'));
  const sub = (name: string): string => {
    const p = path.join(dir, name);
    mkdirSync(p, { recursive: true });
    return p;
  };
  const data = sub('data');
  // Our own python3 kernelspec, so no kernel installed elsewhere on the machine can take its place.
  mkdirSync(path.join(data, 'kernels', 'python3'), { recursive: true });
  writeFileSync(
    path.join(data, 'kernels', 'python3', 'kernel.json'),
    JSON.stringify({
      argv: [PYTHON, '-m', 'ipykernel_launcher', '-f', '{connection_file}'],
      display_name: 'Python 3 (ipykernel)',
      language: 'python',
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
    MPLBACKEND: 'Agg',
    PYDEVD_DISABLE_FILE_VALIDATION: '1',
    PYTHONDONTWRITEBYTECODE: '1',
  };
  const work = sub('work');

  const run = (args: string[], stdin: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const child = spawn(PYTHON, args, { env, cwd: work, stdio: ['pipe', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
      child.on('error', reject);
      child.on('close', (code) => {
        if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
        else reject(new Error(`python exited ${code}: ${Buffer.concat(err).toString('utf8')}`));
      });
      child.stdin.end(stdin);
    });

  return {
    env,
    dir,
    python: (code, stdin = '', args = []) => run(['-c', code, ...args], stdin),
    async validate(texts, options = {}) {
      const load = options.exact ? 'json.loads(text)' : 'nbformat.reads(text, as_version=4)';
      const out = await run(
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
      run(['-c', 'import sys, nbformat; sys.stdout.write(nbformat.writes(nbformat.reads(sys.stdin.read(), as_version=4)))'], text),
    async execute(text) {
      const file = path.join(work, `nb-${Date.now()}-${Math.random().toString(36).slice(2)}.ipynb`);
      writeFileSync(file, text);
      return run(['-m', 'nbconvert', '--to', 'notebook', '--execute', '--stdout', '--ExecutePreprocessor.kernel_name=python3', file], '');
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
