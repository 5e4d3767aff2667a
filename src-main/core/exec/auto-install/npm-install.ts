import { which } from '../languages/find-runtime';
import { lastLines, runInstaller } from './installer-process';

// `npm install` into the workspace, where the JavaScript session (and node run from the shell)
// resolve packages from. --prefix pins it there: without it npm would climb to the nearest parent
// folder with a package.json and install into some other project. npm reads its usual
// configuration (.npmrc, npm_config_registry…) from the environment passed in.

export interface NpmInstallInput {
  packages: string[];
  workspace: string;
  env: Record<string, string>;
  onTerminal?: (text: string) => void;
  signal?: AbortSignal;
}

export interface NpmInstallResult {
  ok: boolean;
  command: string;
  problem: string | null;
  stopped: 'interrupted' | 'timeout' | null;
  /** What npm printed (plain text), for the cell's saved output. */
  log: string;
}

export async function npmInstall(input: NpmInstallInput): Promise<NpmInstallResult> {
  const command = `npm install --prefix ${input.workspace} ${input.packages.join(' ')}`;
  const npm = await which('npm', input.env.PATH ?? process.env.PATH ?? '');
  if (!npm) {
    return { ok: false, command, problem: 'npm is not installed here: install Node.js (which includes npm) to add JavaScript packages.', stopped: null, log: '' };
  }
  try {
    input.onTerminal?.(`\r\n\x1b[2m$ ${command}\x1b[0m\r\n`);
  } catch {
    // The UI's trouble is not the install's.
  }
  const result = await runInstaller({
    file: npm,
    args: ['install', '--prefix', input.workspace, '--no-audit', '--no-fund', ...input.packages],
    cwd: input.workspace,
    env: input.env,
    onTerminal: input.onTerminal,
    signal: input.signal,
  });
  return {
    ok: result.ok,
    command,
    problem: result.ok ? null : `${command} failed${result.stopped ? ` (${result.stopped})` : ''}:\n${lastLines(result.text)}`,
    stopped: result.stopped,
    // npm's spinner (braille frames) means nothing once saved.
    log: `$ ${command}\n${result.text.replace(/[\u2800-\u28ff]/g, '').replace(/\n\s*(?=\n)/g, '').trim()}`,
  };
}
