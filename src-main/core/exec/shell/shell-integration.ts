import { join } from 'node:path';
import { installScript, type ShellFlavor } from './shell-flavor';

// The bash side of shell integration (zsh's is zsh-integration.ts). The rc file itself, and why it
// is the way it is, is resources/shell/oi-rc.bash: after every command line it reports the cwd, the
// exit code and the run's fence as OSC 633 sequences; main types a short line to run a cell.

/** The rc file under the app's resources folder. */
export const BASH_RC_FILE = join('shell', 'oi-rc.bash');

/** The line main types into the shell to run the cell file with this run's nonce. */
export function bashRunLine(nonce: string): string {
  return `\x15 __oi_begin ${nonce}; eval "$__oi_code" 2>&$__oi_errfd\r`;
}

/**
 * bash as ShellSession starts it: no login files (--noprofile), our rc instead of ~/.bashrc (which
 * ours sources), no readline (nothing to edit: main types whole lines). The rc is copied into the
 * session's private folder so a session keeps the file it started with for its whole life.
 */
export const bashFlavor: ShellFlavor = {
  label: 'shell',
  program: 'bash',
  rcHint: '~/.bashrc',
  async prepare(dir, _env, resourcesDir) {
    const rcFile = join(dir, 'rc.bash');
    await installScript(resourcesDir, BASH_RC_FILE, rcFile);
    return { args: ['--noprofile', '--rcfile', rcFile, '--noediting', '-i'], env: {} };
  },
  runLine: bashRunLine,
};
