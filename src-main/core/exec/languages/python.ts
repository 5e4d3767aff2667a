import { join } from 'node:path';
import { isExecutable, versionOf, which } from './find-runtime';
import type { LanguageDefinition } from './language';

const VERSION = /Python (\d+\.\d+\.\d+)/;

// The interpreter: the pythonPath setting, else the workspace's own virtual environment (what
// the user would get after activating it), else python3 on PATH.
export const python: LanguageDefinition = {
  name: 'python',
  label: 'Python',
  aliases: ['py', 'python3', 'python', 'ipython'],
  kind: 'runner',
  runtimeLabel: 'python',
  async detect({ settings, workspace, path }) {
    const candidates: string[] = [];
    if (settings?.pythonPath) candidates.push(settings.pythonPath);
    if (workspace) {
      candidates.push(
        process.platform === 'win32' ? join(workspace, '.venv', 'Scripts', 'python.exe') : join(workspace, '.venv', 'bin', 'python'),
      );
    }
    for (const candidate of candidates) {
      if (await isExecutable(candidate)) return { command: candidate, version: await versionOf(candidate, ['--version'], VERSION) };
    }
    if (settings?.pythonPath) return null;
    for (const name of ['python3', 'python']) {
      const found = await which(name, path);
      if (!found) continue;
      const version = await versionOf(found, ['--version'], VERSION);
      // A pyenv shim or the Windows Store stub exists without a working interpreter behind it.
      if (version && !version.startsWith('2.')) return { command: found, version };
    }
    return null;
  },
  runner: {
    script: join('runners', 'python', 'oi_runner.py'),
    args: (script) => ['-u', script],
  },
};
