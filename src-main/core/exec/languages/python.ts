import { join } from 'node:path';
import { isExecutable, probe, which } from './find-runtime';
import type { LanguageDefinition, Runtime } from './language';

const PROBE = 'import sys; print(sys.executable); print("%d.%d.%d" % sys.version_info[:3])';

/**
 * Asks the interpreter for its real executable and version in one go. A version manager's shim
 * (pyenv, asdf) is a script that costs hundreds of milliseconds per start; the real executable it
 * resolves to is the same interpreter without that cost.
 */
async function inspect(command: string): Promise<Runtime | null> {
  const out = await probe(command, ['-c', PROBE]);
  if (!out) return null;
  const [executable, version] = out.trim().split('\n').map((l) => l.trim());
  if (!version || version.startsWith('2.')) return null;
  const real = executable && (await isExecutable(executable)) ? executable : command;
  return { command: real, version };
}

// The interpreter: the pythonPath setting, else the workspace's own virtual environment (what
// the user would get after activating it), else python3 on PATH.
export const python: LanguageDefinition = {
  name: 'python',
  label: 'Python',
  aliases: ['py', 'python3', 'python', 'ipython'],
  kind: 'runner',
  runtimeLabel: 'python',
  async detect({ settings, workspace, path }) {
    if (settings?.pythonPath) return inspect(settings.pythonPath);
    if (workspace) {
      const venv =
        process.platform === 'win32' ? join(workspace, '.venv', 'Scripts', 'python.exe') : join(workspace, '.venv', 'bin', 'python');
      // sys.executable of a venv is the venv's own path (not what it links to), which keeps it the venv.
      const runtime = (await isExecutable(venv)) ? await inspect(venv) : null;
      if (runtime) return runtime;
    }
    for (const name of ['python3', 'python']) {
      const found = await which(name, path);
      const runtime = found ? await inspect(found) : null;
      if (runtime) return runtime;
    }
    return null;
  },
  runner: {
    script: join('runners', 'python', 'oi_runner.py'),
    args: (script) => [script],
  },
};
