import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { createJupyterHome, SYSTEM_PYTHON, ZYGOTE, type JupyterHome } from './jupyter-home';

// One Python per test process runs every export check's notebooks (notebook-rerun.ts), instead of
// one per check: the Python and its import of nbclient cost about 0.6 CPU-seconds a start, and the
// agent tests check ~100 conversations. Each notebook still gets a fresh kernel of its own, as
// `jupyter nbconvert --execute` gives it. nbclient's NotebookClient is what nbconvert's
// ExecutePreprocessor runs (its subclass), without importing nbconvert's exporters and templates.

// The Python removes its Jupyter home itself when its stdin closes: a vitest worker is often ended
// without its 'exit' event, and the pipe closing is what every ending has in common.
const SERVE = String.raw`
import json, shutil, sys
import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

for line in sys.stdin:
    results = []
    for path, folder in json.loads(line):
        nb = nbformat.read(path, as_version=4)
        try:
            NotebookClient(nb, timeout=120, kernel_name='python3', resources={'metadata': {'path': folder}}).execute()
            error = None
        except CellExecutionError as e:
            error = str(e)[-3000:]
        cells = {}
        for cell in nb.cells:
            if cell.cell_type == 'code':
                cells[cell.get('id', '')] = {'source': cell.source, 'tags': cell.metadata.get('tags', []),
                                             'outputs': [dict(o) for o in cell.outputs]}
        results.append({'error': error, 'cells': cells})
    sys.stdout.write(json.dumps(results) + '\n')
    sys.stdout.flush()
shutil.rmtree(sys.argv[1], ignore_errors=True)
`;

/** The kernel that check runs the notebooks with (its Python and environment). */
export interface RerunKernel {
  /** The kernel's Python (default Debian's); a virtual environment lets `%pip install` cells install. */
  python?: string;
  env?: Record<string, string>;
}

interface Worker {
  home: JupyterHome;
  child: ChildProcessWithoutNullStreams;
  /** The kernel zygote of the default kernel (kernel-zygote.py), ready when `queue` first settles. */
  zygote?: ChildProcessWithoutNullStreams;
  /** The last request's answer: requests go one at a time, each after the one before. */
  queue: Promise<unknown>;
  stderr: string;
}

const workers = new Map<string, Worker>();

// The workers outlive the test that first asked (the next test's check uses them), so they end with
// the test process; a worker whose test process was killed outright sees its stdin close, removes its
// home and exits.
process.once('exit', () => {
  for (const worker of workers.values()) {
    worker.child.kill('SIGKILL');
    worker.zygote?.kill('SIGKILL');
    worker.home.dispose();
  }
});

function workerFor(kernel: RerunKernel): Worker {
  const key = JSON.stringify([kernel.python ?? '', kernel.env ?? {}]);
  const running = workers.get(key);
  if (running && running.child.exitCode === null && running.child.signalCode === null) return running;
  // Debian's kernel, the one almost every check uses, comes forked from a zygote: a fresh kernel
  // without its ~1 CPU-second of imports (kernel-zygote.py). Another Python or environment (a virtual
  // environment's kernel for `%pip install`) starts each kernel afresh, as Jupyter would.
  const forked = !kernel.python && !kernel.env;
  const home = createJupyterHome({
    prefix: 'oi-rerun-',
    ...(kernel.python ? { kernelPython: kernel.python } : {}),
    ...(kernel.env ? { kernelEnv: kernel.env } : {}),
    ...(forked ? { zygoteSocket: (dir: string) => path.join(dir, 'zygote.sock') } : {}),
  });
  const env = { ...home.env, MPLBACKEND: 'Agg' };
  const child = spawn(SYSTEM_PYTHON, ['-c', SERVE, home.dir], { env, cwd: home.work, stdio: 'pipe' });
  const worker: Worker = { home, child, queue: Promise.resolve(), stderr: '' };
  if (forked) {
    const zygote = spawn(SYSTEM_PYTHON, [ZYGOTE, path.join(home.dir, 'zygote.sock')], { env, cwd: home.work, stdio: 'pipe' });
    zygote.unref();
    worker.zygote = zygote;
    zygote.stderr.on('data', (chunk: Buffer) => {
      worker.stderr = (worker.stderr + chunk.toString('utf8')).slice(-4000);
    });
    // The first notebook waits until the zygote listens (its imports take a moment).
    worker.queue = new Promise<void>((resolve, reject) => {
      zygote.stdout.once('data', () => resolve());
      zygote.once('exit', (code) => reject(new Error(`the kernel zygote exited (${code}): ${worker.stderr}`)));
    }).catch(() => undefined);
  }
  child.stderr.on('data', (chunk: Buffer) => {
    worker.stderr = (worker.stderr + chunk.toString('utf8')).slice(-4000);
  });
  // Not a reason to keep the test process alive.
  child.unref();
  workers.set(key, worker);
  return worker;
}

/** Runs each [notebook, folder] in a fresh kernel, in order; resolves with nbclient's results. */
export function rerunNotebooks<T>(kernel: RerunKernel, jobs: ReadonlyArray<readonly [string, string]>): Promise<T[]> {
  const worker = workerFor(kernel);
  const answer = worker.queue.then(
    () =>
      new Promise<T[]>((resolve, reject) => {
        let text = '';
        const onData = (chunk: Buffer): void => {
          text += chunk.toString('utf8');
          const end = text.indexOf('\n');
          if (end < 0) return;
          stop();
          resolve(JSON.parse(text.slice(0, end)) as T[]);
        };
        const onExit = (code: number | null, signal: string | null): void => {
          stop();
          reject(new Error(`the notebook re-run's Python exited (${code ?? signal}): ${worker.stderr}`));
        };
        const stop = (): void => {
          worker.child.stdout.off('data', onData);
          worker.child.off('exit', onExit);
        };
        worker.child.stdout.on('data', onData);
        worker.child.once('exit', onExit);
        worker.child.stdin.write(JSON.stringify(jobs) + '\n');
      }),
  );
  worker.queue = answer.catch(() => undefined);
  return answer;
}

/** The folder each check's notebooks are copied into (removed by the caller after its check). */
export function rerunWorkFolder(kernel: RerunKernel): string {
  return workerFor(kernel).home.work;
}

/** The pid of the kernel zygote that forks `kernel`'s kernels, if it has one (kernel-zygote.py). */
export function kernelZygotePid(kernel: RerunKernel): number | undefined {
  return workerFor(kernel).zygote?.pid;
}
